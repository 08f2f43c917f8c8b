// Real-world shapes of html/template's trusted types made from values
// that are neither constant nor escaped (request values, rendered
// Markdown, a "safe" template helper), then near misses: constants,
// escaped or sanitized values, and a sub-template rendered into a buffer.
package page

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html"
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"github.com/gorilla/mux"
	"github.com/microcosm-cc/bluemonday"
)

type Page struct {
	Title   template.HTML
	Bio     template.HTML
	Next    template.URL
	Handler template.JS
}

const banner = "<b>Welcome</b>"

var tmpl = template.Must(template.New("p").Parse(`{{.Bio}}`))

func markdown(s string) string { return s }

func Profile(w http.ResponseWriter, r *http.Request) {
	bio := r.FormValue("bio")
	next := r.URL.Query().Get("next")
	id := mux.Vars(r)["id"]
	p := Page{
		Bio:     template.HTML(bio),                                        // want "value read from the request \(r.FormValue\(\"bio\"\)\).*reflected XSS"
		Next:    template.URL(next),                                        // want "template.URL\(next\) inserts a value read from the request"
		Handler: template.JS("load(" + id + ")"),                           // want "reflected XSS"
		Title:   template.HTML("<h1>" + r.Header.Get("X-Title") + "</h1>"), // want "template.HTML"
	}
	_ = tmpl.Execute(w, p)
}

func Render(post struct{ Body string }) template.HTML {
	return template.HTML(markdown(post.Body)) // want "marks the value as safe, so html/template inserts it without escaping"
}

var funcs = template.FuncMap{
	"safe": func(s string) template.HTML { return template.HTML(s) }, // want "turns the s parameter into trusted content"
}

func Attr(name, value string) template.HTMLAttr {
	return template.HTMLAttr(name + `="` + value + `"`) // want "Unescaped value marked safe for html/template"
}

// Near misses: none of these is reported.

var policy = bluemonday.UGCPolicy()

func Safe(r *http.Request, post struct{ Body string }) Page {
	title := template.HTMLEscapeString(r.FormValue("title"))
	var buf bytes.Buffer
	_ = tmpl.Execute(&buf, post)
	msg := "<i>static</i>"
	if post.Body == "" {
		msg = banner
	}
	return Page{
		Title:   template.HTML(banner),
		Bio:     template.HTML(policy.Sanitize(markdown(post.Body))),
		Next:    template.URL("/home?x=" + url.QueryEscape(r.FormValue("x"))),
		Handler: template.JS(`init()`),
	}.with(template.HTML(title), template.HTML(buf.String()), template.HTML(html.EscapeString(post.Body)), template.HTML(msg),
		template.HTML(string(policy.SanitizeBytes([]byte(post.Body)))))
}

func (p Page) with(...template.HTML) Page { return p }

// Near misses built from safe parts: escaped lines written into a buffer,
// numbers formatted with %d, a base64 data URL.
func Lines(src []string, png []byte) (template.HTML, template.HTML, template.URL) {
	const open = `<ol>`
	var out bytes.Buffer
	out.WriteString(open)
	for i, l := range src {
		out.WriteString(fmt.Sprintf(`<li id="L%d">%s</li>`, i+1, template.HTMLEscapeString(l)) + "\n")
	}
	out.WriteByte('\n')
	var nums strings.Builder
	for i := range src {
		fmt.Fprintf(&nums, `<span>%d</span>`, i+1)
	}
	return template.HTML(out.String()), template.HTML(nums.String()),
		template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(png))
}

// Reported: a buffer that takes unescaped text.
func Raw(src []string) template.HTML {
	var out bytes.Buffer
	for _, l := range src {
		out.WriteString("<p>" + l + "</p>")
	}
	return template.HTML(out.String()) // want "marks the value as safe"
}
