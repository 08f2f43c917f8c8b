package syntax_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reviewls/reviewls/review"
	"github.com/reviewls/reviewls/review/syntax"
)

// render summarises the tags of a scan, one per line:
// "line name(parent) flags key=value key={expr} key".
func render(m *syntax.Markup) []string {
	var out []string
	for i := range m.Tags {
		t := &m.Tags[i]
		var b strings.Builder
		fmt.Fprintf(&b, "%d %s", t.Line, t.Name)
		if t.EndLine != t.Line {
			fmt.Fprintf(&b, "-%d", t.EndLine)
		}
		if t.Parent >= 0 {
			fmt.Fprintf(&b, "(%s)", m.Tags[t.Parent].Name)
		}
		for _, f := range []struct {
			on   bool
			name string
		}{{t.Text, "text"}, {t.Expr, "expr"}, {t.Spread, "spread"}, {t.SelfClosing, "self"}} {
			if f.on {
				b.WriteString(" " + f.name)
			}
		}
		for _, a := range t.Attrs {
			switch a.Kind {
			case syntax.AttrBool:
				fmt.Fprintf(&b, " %s", a.Key)
			case syntax.AttrLiteral:
				fmt.Fprintf(&b, " %s=%q", a.Key, a.Value)
			case syntax.AttrExpr:
				fmt.Fprintf(&b, " %s={%s}", a.Key, a.Value)
			}
		}
		out = append(out, b.String())
	}
	return out
}

func TestScanMarkup(t *testing.T) {
	tests := []struct {
		name string
		lang review.Language
		src  string
		want []string
	}{
		{
			name: "html",
			lang: review.LangHTML,
			src: `<!DOCTYPE html>
<HTML lang="en">
<!-- <img src="commented.png"> -->
<body>
  <img src=a.png alt>
  <button class="x"><svg><use href="#i"></use></svg></button>
  <script>if (a < b && c > d) { document.write("<img src=x>") }</script>
  <style>p > a { color: red }</style>
  <p>Hi <input type="text" disabled>
  <input th:field="*{name}"><input <?php echo $attrs ?> name="x"><a href="/x" data-bind="attr: { title: t }">y</a>
</body>`,
			want: []string{
				`2 HTML lang="en"`,
				`4 body(HTML)`,
				`5 img(body) self src="a.png" alt`,
				`6 button(body) class="x"`,
				`6 svg(button)`,
				`6 use(svg) href="#i"`,
				`7 script(body)`,
				`8 style(body)`,
				`9 p(body) text`,
				`9 input(p) self type="text" disabled`,
				`10 input(p) spread self`,
				`10 input(p) spread self name="x"`,
				`10 a(p) text spread href="/x"`,
			},
		},
		{
			name: "jsx",
			lang: review.LangTSX,
			src: `import x from 'y';
const f = <T,>(v: T) => v;
const g = <T extends object>(v: T) => v;
type H = <T>(v: T) => T;
function A({ items }: { items: string[] }) {
  const [s, setS] = useState<string | null>(null);
  if (a < b && c > d) { return null; }
  const re = /<div>/g;
  const tpl = ` + "`<b>${<i>x</i>}</b>`" + `;
  return (
    <ul className="l" {...rest}>
      {/* want "a comment is not content" */}
      {items.map((it) => <li key={it} onClick={() => setS(it)}>{it}</li>)}
      <Button
        icon={<TrashIcon />}
        tabIndex={2}
        aria-hidden
      />
      <>text</>
    </ul>
  );
}`,
			// The <i> in the template substitution on line 9 is not read:
			// the rules' tokens hold the template whole.
			want: []string{
				`11 ul expr spread class="l"`,
				`13 li(ul) expr key={it} onclick={() => setS(it)}`,
				`14 Button-18(ul) self icon={<TrashIcon />} tabindex={2} aria-hidden`,
				`15 TrashIcon(Button) expr spread self`,
				`19 (ul) text`,
			},
		},
		{
			name: "vue",
			lang: review.LangVue,
			src: `<template>
  <div>
    <img :src="url" v-bind:alt="alt">
    <button @click.stop="go" :tabindex="1">{{ a < b ? 'x' : 'y' }}</button>
    <my-icon v-bind="attrs" v-html="svg" />
  </div>
</template>
<script setup lang="ts">
const t = a < b ? '<img>' : ''
</script>`,
			want: []string{
				`1 template`,
				`2 div(template) spread`,
				`3 img(div) self src={url} alt={alt}`,
				`4 button(div) expr onclick={go} tabindex={1}`,
				`5 my-icon(div) expr spread self v-html="svg"`,
				`8 script setup lang="ts"`,
			},
		},
		{
			name: "svelte",
			lang: review.LangSvelte,
			src: `<script>
  let { alt, ...rest } = $props();
  const lt = 1 < 2;
</script>
<img {alt} src="a {b}" {...rest} />
{#if a < b}
  <button on:click|preventDefault={go} tabindex="0">{label}</button>
{/if}`,
			want: []string{
				`1 script`,
				`5 img spread self alt={alt} src={a {b}}`,
				`7 button expr onclick={go} tabindex="0"`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := render(syntax.ScanMarkup(tt.lang, []byte(tt.src)))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("tags (-want +got):\n%s", diff)
			}
		})
	}
}

func TestScanMarkupPositions(t *testing.T) {
	src := "<div>\n  <button\n    type=\"button\"\n    tabIndex={3}>Go</button>\n</div>\n"
	m := syntax.ScanMarkup(review.LangJSX, []byte(src))
	if len(m.Tags) != 2 {
		t.Fatalf("got %d tags, want 2", len(m.Tags))
	}
	b := m.Tags[1]
	if b.Line != 2 || b.Col != 3 || b.EndLine != 4 || b.EndCol != 18 {
		t.Errorf("button span = %d:%d-%d:%d, want 2:3-4:18", b.Line, b.Col, b.EndLine, b.EndCol)
	}
	a := b.Attr("tabindex")
	if a == nil || m.Text(a.ValStart, a.ValEnd) != "3" || m.Text(a.Start, a.End) != "tabIndex={3}" {
		t.Fatalf("tabindex attr = %+v", a)
	}
	if v, ok := a.Static(); !ok || v != "3" {
		t.Errorf("Static() = %q, %v; want 3, true", v, ok)
	}
	if s := m.Span("a.jsx", a.ValStart, a.ValEnd); s.StartLine != 4 || s.StartCol != 15 || s.EndCol != 16 {
		t.Errorf("value span = %+v", s)
	}
	if !b.Text || b.Last != 1 || m.Tags[0].Last != 1 {
		t.Errorf("content facts: text=%v last=%d div.last=%d", b.Text, b.Last, m.Tags[0].Last)
	}
}

func TestAttrStatic(t *testing.T) {
	m := syntax.ScanMarkup(review.LangJSX, []byte(`<x a={0} b={"s"} c={'s'} d={true} e={n} f="lit" g h={`+"`t${x}`"+`} i={-1} />`))
	got := map[string]string{}
	for _, a := range m.Tags[0].Attrs {
		v, ok := a.Static()
		got[a.Key] = fmt.Sprintf("%s/%v", v, ok)
	}
	want := map[string]string{"a": "0/true", "b": "s/true", "c": "s/true", "d": "true/true", "e": "/false",
		"f": "lit/true", "g": "true/true", "h": "/false", "i": "-1/true"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Static (-want +got):\n%s", diff)
	}
}

func TestMarkupFileNotMarkup(t *testing.T) {
	f := &review.File{Path: "a.go", Language: review.LangGo, Content: []byte("package a\nvar x = a <b\n")}
	if m := syntax.MarkupFile(f); len(m.Tags) != 0 {
		t.Errorf("Go file has %d tags, want 0", len(m.Tags))
	}
}

// TestScanMarkupSelfClosingAttrElement: an element passed in an attribute
// of a self-closing tag is a descendant of that tag (found by fuzzing:
// the tag's Last left it out while its Parent named the tag).
func TestScanMarkupSelfClosingAttrElement(t *testing.T) {
	m := syntax.ScanMarkup(review.LangTSX, []byte(`f(<div><Card icon={<img src="x.png" />} title="t" /><p>after</p></div>)`))
	if len(m.Tags) != 4 {
		t.Fatalf("got %d tags, want 4", len(m.Tags))
	}
	card, img, p := m.Tags[1], m.Tags[2], m.Tags[3]
	if img.Parent != 1 || card.Last != 2 || p.Parent != 0 || p.Last != 3 {
		t.Errorf("card.last=%d img.parent=%d p.parent=%d p.last=%d, want 2 1 0 3", card.Last, img.Parent, p.Parent, p.Last)
	}
}

// TestScanMarkupEndAtLineBreak: a start tag left open before the end of
// the file ends at the end of its last line, not past its line break
// (found by fuzzing the catalog: a finding's end column was past its
// line). In HTML a "<" inside a start tag is part of an attribute name, as
// the HTML5 tokenizer reads it: the tag ends at the next ">".
func TestScanMarkupEndAtLineBreak(t *testing.T) {
	for _, tt := range []struct {
		lang            review.Language
		src             string
		endLine, endCol int
	}{
		{review.LangHTML, "<div class=\"a\"\n<p>x</p>\n", 2, 4},
		{review.LangHTML, "<div class=\"a\"\r\n<p>x</p>\r\n", 2, 4},
		{review.LangHTML, "<div class=\"a\"\n", 1, 15},
		{review.LangVue, "<img alt\r\n", 1, 9},
		{review.LangTSX, "<a onClick\n", 1, 11},
		{review.LangHTML, "<p\n  class=x>\n", 2, 11},
	} {
		m := syntax.ScanMarkup(tt.lang, []byte(tt.src))
		if len(m.Tags) == 0 {
			t.Errorf("%q: no tags", tt.src)
			continue
		}
		if tg := m.Tags[0]; tg.EndLine != tt.endLine || tg.EndCol != tt.endCol {
			t.Errorf("%q: first tag ends at %d:%d, want %d:%d", tt.src, tg.EndLine, tg.EndCol, tt.endLine, tt.endCol)
		}
	}
}

// TestScanMarkupEscapeAtEnd: a string or template literal whose last byte
// is a backslash ends at the end of the file, not a byte past it (found
// by fuzzing: the tag's End was out of range).
func TestScanMarkupEscapeAtEnd(t *testing.T) {
	for _, src := range []string{`<A b={"\`, "<A b={`\\", "<A {'\\", "<A b={`${'\\"} {
		m := syntax.ScanMarkup(review.LangTSX, []byte(src))
		for _, tg := range m.Tags {
			if tg.End > len(src) {
				t.Errorf("%q: tag %s ends at %d, past the %d bytes", src, tg.Name, tg.End, len(src))
			}
			for _, a := range tg.Attrs {
				if a.End > len(src) {
					t.Errorf("%q: attribute %s ends at %d, past the %d bytes", src, a.Name, a.End, len(src))
				}
			}
		}
	}
}

// TestScanMarkupHTML5 checks the readings the HTML5 tokenizer brings, the
// template regions it is kept away from, and JSX as the lexer reads it.
func TestScanMarkupHTML5(t *testing.T) {
	tests := []struct {
		name string
		lang review.Language
		src  string
		want []string
	}{
		{"textarea content is text", review.LangHTML, "<textarea><img src=x></textarea><hr>",
			[]string{"1 textarea text", "1 hr self"}},
		{"title content is text", review.LangHTML, "<title>a <b>b</b></title>", []string{"1 title text"}},
		{"noscript content is markup", review.LangHTML, "<noscript><img src=x></noscript>",
			[]string{"1 noscript", `1 img(noscript) self src="x"`}},
		{"empty comment", review.LangHTML, "<!--><img alt=\"\">", []string{`1 img self alt=""`}},
		{"doctype and bogus comments", review.LangHTML, "<!DOCTYPE html><?xml x?><p>a</p>", []string{"1 p text"}},
		{"script body is not markup", review.LangHTML, "<script>if (a<b) { x('</p>') }</script><p>a</p>",
			[]string{"1 script", "1 p text"}},
		{"interpolation is not a tag", review.LangVue, "<template><p>{{ a<b }}</p></template>",
			[]string{"1 template", "1 p(template) expr spread"}}, // spread: the root takes fallthrough attributes
		{"svelte self-closing textarea", review.LangSvelte, "<textarea bind:value={v} />\n<img src={s}>",
			[]string{"1 textarea self bind:value={v}", "2 img self src={s}"}},
		{"svelte block end before a tag", review.LangSvelte, "<div>{#if a}x{/if}{@html raw}</div>\n{#if b}<p>y</p>{/if}<img src=\"a.png\">",
			[]string{"1 div text expr", "2 p text", `2 img self src="a.png"`}},
		{"svelte expression with a tag in a string", review.LangSvelte, "<p>{a ? '<b>' : c}</p>", []string{"1 p expr"}},
		// JSX, read from the lexer's tokens.
		{"jsx comment-only child is not content", review.LangTSX, "const a = <div>{/* TODO */}</div>;", []string{"1 div"}},
		{"jsx type arguments in a tag", review.LangTSX, "const a = <Sel<Opt> name=\"n\" />;\nconst b = <p>Don't</p>;",
			[]string{`1 Sel self name="n"`, "2 p text"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := render(syntax.ScanMarkup(tt.lang, []byte(tt.src)))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("tags (-want +got):\n%s", diff)
			}
		})
	}
}
