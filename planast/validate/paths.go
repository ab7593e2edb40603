package validate

import "github.com/nl2sql/nl2sql/planast"

// join and idx spell issue paths as the decoder does.
func join(path, key string) string  { return planast.JoinPath(path, key) }
func idx(path string, i int) string { return planast.IndexPath(path, i) }
