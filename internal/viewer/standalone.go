package viewer

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/engine"
)

// dataMarker is where Standalone puts the result in the page.
const dataMarker = "<!--NL2SQL_DATA-->"

// Standalone is the view page with res embedded, for reading outside an
// assistant (nl2sql ask --html FILE): the same page and the same tool
// result shape (structured content and _meta) a host would send it. The
// result is a JSON block (type application/json, which the browser never
// runs); encoding/json escapes <, > and & in it, so no value can close the
// block.
func Standalone(res *engine.Result) ([]byte, error) {
	if !strings.Contains(page, dataMarker) {
		return nil, fmt.Errorf("viewer: the embedded page has no data marker: rebuild it (go generate ./internal/viewer)")
	}
	body, err := json.Marshal(map[string]any{
		"structuredContent": res,
		"_meta":             map[string]any{MetaKey: For(res)},
	})
	if err != nil {
		return nil, fmt.Errorf("viewer: encode the result: %w", err)
	}
	block := `<script type="application/json" id="nl2sql-result">` + string(body) + `</script>`
	return []byte(strings.Replace(page, dataMarker, block, 1)), nil
}
