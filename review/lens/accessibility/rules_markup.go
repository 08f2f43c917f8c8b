package accessibility

import (
	"github.com/reviewls/reviewls/review/lens"
)

// markupRules returns the accessibility rules for markup: HTML, JSX/TSX,
// Vue and Svelte, all built on the shared scan of [syntax.MarkupFile].
func markupRules() []*lens.Rule {
	return []*lens.Rule{
		ImgAlt,
		ControlName,
		FormLabel,
		ClickWithoutKeyboard,
		PositiveTabindex,
		HTMLLang,
		AriaHiddenFocusable,
		MediaAutoplay,
		IframeTitle,
		ViewportZoom,
	}
}
