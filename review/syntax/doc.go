// Package syntax is the one place source is read as code. Each language
// family has one reader, memoised on the review.File it reads so a file
// is read once per content, and every stage (the rules, the symbol
// extraction, the risk assessment, the orientation) reads these:
//
//   - Go: one go/parser parse ([Go]), and the body cutter the symbol
//     extractor uses on files with syntax errors ([GoCutBodies]).
//   - The table-driven lexer ([Lex], [TokensOf]) of every language whose
//     row in review/language.go has token rules: JavaScript and
//     TypeScript (JSX and TSX elements included), Python, Java, Rust, C,
//     shell, Ruby, and more. [JS] is the rules' reading of JavaScript
//     (template literals and operators whole), [Python] the layout of a
//     Python file built on its tokens, [ExprEnd] one expression in
//     braces.
//   - Markup ([MarkupFile], [ScanMarkup]): HTML, Vue and Svelte through
//     the HTML5 tokenizer of golang.org/x/net/html, JSX and TSX from the
//     lexer's tokens.
//   - Shell command lines ([ShellCommands]) and YAML documents ([YAML])
//     for scripts, Dockerfiles and workflows.
//   - Comments of any language ([Comments]), by the comment syntax of its
//     row, for ignore directives and comment-only lines.
//
// The package imports only the model (review).
package syntax
