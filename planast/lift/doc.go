// Package lift turns SQL into a plan.
package lift

import _ "github.com/pganalyze/pg_query_go/v6"
