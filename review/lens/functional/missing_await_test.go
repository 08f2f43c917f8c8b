package functional

import (
	"testing"

	"github.com/reviewls/reviewls/internal/treetest"
	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/lens/lenstest"
)

// TestMissingAwaitImports checks callees made async in other files: a
// module's async export used through a require, and a repository class a
// constructor parameter is typed with, both read from the work tree.
func TestMissingAwaitImports(t *testing.T) {
	root := t.TempDir()
	treetest.Write(t, root, map[string]string{
		"app/utils/permission.js": "module.exports = {\n  check: async (req, res, owner) => {\n    return req.user.id === owner;\n  },\n  name: (u) => u.name,\n};\n",
		"src/comment.repo.ts":     "export class CommentRepo {\n  async findById(id: string) { return null; }\n  count() { return 0; }\n}\n",
	})
	post := "const permission = require('../utils/permission');\n\nexports.remove = async (req, res) => {\n" +
		"  if (!permission.check(req, res, req.post.userId)) {\n    return res.status(403).end();\n  }\n" +
		"  if (!permission.name(req.user)) return;\n};\n"
	svc := "import { CommentRepo } from './comment.repo';\n\nexport class CommentService {\n" +
		"  constructor(private commentRepo: CommentRepo) {}\n\n  async get(id: string) {\n" +
		"    const comment = this.commentRepo.findById(id);\n    if (!comment) throw new Error('none');\n" +
		"    const n = this.commentRepo.count();\n    if (!n) return;\n    return comment;\n  }\n}\n"
	for _, tt := range []struct {
		path, src string
		line      int
	}{
		{"app/controllers/post.js", post, 4},
		{"src/comment.service.ts", svc, 7},
	} {
		f := lenstest.NewFile(tt.path, []byte(tt.src))
		cs := &review.ChangeSet{Root: root, Files: []*review.File{f}}
		got := lenstest.CheckSet(t, MissingAwait, cs, 0, nil)
		if len(got) != 1 || got[0].Span.StartLine != tt.line {
			t.Errorf("%s: got %d findings (%v), want one on line %d", tt.path, len(got), got, tt.line)
		}
	}
}
