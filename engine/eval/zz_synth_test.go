package eval

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestDbgSynth(t *testing.T) {
	if os.Getenv("SYNTH") == "" {
		t.Skip()
	}
	shared := sharedDir(t)
	file := filepath.Join(shared, "eval/bird-minidev/mini_dev_sqlite.json")
	qs, _ := LoadQuestions(SuiteBird, file)
	var strs, nums []string
	strRe := regexp.MustCompile(`'([^']*)'`)
	numRe := regexp.MustCompile(`\b\d+(\.\d+)?\b`)
	for _, q := range qs {
		for _, m := range strRe.FindAllStringSubmatch(q.Gold, -1) {
			if !strings.Contains(m[1], "%") {
				strs = append(strs, m[1])
			} else {
				strs = append(strs, strings.ReplaceAll(m[1], "%", "x"))
			}
		}
		nums = append(nums, numRe.FindAllString(q.Gold, -1)...)
	}
	colStr := map[string][]string{}
	colNum := map[string][]string{}
	pairStr := regexp.MustCompile("(?i)([A-Za-z_][A-Za-z0-9_]*)[`\\]\"]?\\s*(?:=|<>|!=|>=|<=|>|<|LIKE)\\s*'([^']*)'")
	pairNum := regexp.MustCompile("(?i)([A-Za-z_][A-Za-z0-9_]*)[`\\]\"]?\\s*(?:=|<>|!=|>=|<=|>|<|BETWEEN)\\s*(-?\\d+(?:\\.\\d+)?)")
	for _, q := range qs {
		for _, m := range pairStr.FindAllStringSubmatch(q.Gold, -1) {
			colStr[strings.ToLower(m[1])] = append(colStr[strings.ToLower(m[1])], strings.ReplaceAll(m[2], "%", ""))
		}
		for _, m := range pairNum.FindAllStringSubmatch(q.Gold, -1) {
			colNum[strings.ToLower(m[1])] = append(colNum[strings.ToLower(m[1])], m[2])
		}
	}
	root := "/tmp/synth"
	os.RemoveAll(root)
	os.MkdirAll(root, 0o755)
	rng := rand.New(rand.NewSource(1))
	srcRoot := filepath.Join(shared, "eval/bird-minidev/database")
	ents, _ := os.ReadDir(srcRoot)
	for _, e := range ents {
		id := e.Name()
		os.MkdirAll(filepath.Join(root, id), 0o755)
		in, _ := os.Open(DBPath(srcRoot, id))
		out, _ := os.Create(DBPath(root, id))
		io.Copy(out, in)
		in.Close()
		out.Close()
		os.Chmod(DBPath(root, id), 0o644)
		db, err := sql.Open("sqlite", DBPath(root, id))
		if err != nil {
			t.Fatal(err)
		}
		rows, _ := db.Query("SELECT name FROM sqlite_master WHERE type='table'")
		var tables []string
		for rows.Next() {
			var n string
			rows.Scan(&n)
			tables = append(tables, n)
		}
		rows.Close()
		for _, tb := range tables {
			cr, _ := db.Query(fmt.Sprintf(`SELECT name, type FROM pragma_table_info('%s')`, strings.ReplaceAll(tb, "'", "''")))
			var cols, types []string
			for cr.Next() {
				var n, ty string
				cr.Scan(&n, &ty)
				cols = append(cols, n)
				types = append(types, strings.ToUpper(ty))
			}
			cr.Close()
			for r := 0; r < 200; r++ {
				vals := make([]any, len(cols))
				for i, ty := range types {
					x := rng.Intn(10)
					lc := strings.ToLower(cols[i])
					switch {
					case x == 0:
						vals[i] = nil
					case x < 6 && len(colStr[lc]) > 0:
						vals[i] = colStr[lc][rng.Intn(len(colStr[lc]))]
					case x < 6 && len(colNum[lc]) > 0:
						var f float64
						fmt.Sscan(colNum[lc][rng.Intn(len(colNum[lc]))], &f)
						if f == float64(int64(f)) {
							vals[i] = int64(f)
						} else {
							vals[i] = f
						}
					case strings.Contains(ty, "INT"):
						if x < 5 {
							vals[i] = rng.Intn(6)
						} else {
							fmt.Sscan(nums[rng.Intn(len(nums))], &vals[i])
							var k int64
							fmt.Sscan(nums[rng.Intn(len(nums))], &k)
							vals[i] = k
						}
					case strings.Contains(ty, "REAL") || strings.Contains(ty, "FLOA") || strings.Contains(ty, "DOUB") || strings.Contains(ty, "NUM") || strings.Contains(ty, "DEC"):
						vals[i] = float64(rng.Intn(600)) / 4
					case strings.Contains(ty, "DATE") || strings.Contains(ty, "TIME"):
						d := fmt.Sprintf("%04d-%02d-%02d", 1930+rng.Intn(90), 1+rng.Intn(12), 1+rng.Intn(28))
						if strings.Contains(ty, "TIME") && x < 5 {
							d += fmt.Sprintf(" %02d:%02d:00", rng.Intn(24), rng.Intn(60))
						}
						vals[i] = d
					default:
						switch {
						case x < 5:
							vals[i] = strs[rng.Intn(len(strs))]
						case x < 8:
							vals[i] = fmt.Sprint(rng.Intn(6))
						default:
							vals[i] = fmt.Sprintf("%04d-%02d-%02d", 1930+rng.Intn(90), 1+rng.Intn(12), 1+rng.Intn(28))
						}
					}
				}
				ph := strings.TrimSuffix(strings.Repeat("?,", len(cols)), ",")
				if _, err := db.Exec(fmt.Sprintf(`INSERT INTO "%s" VALUES (%s)`, strings.ReplaceAll(tb, `"`, `""`), ph), vals...); err != nil {
					t.Log(tb, err)
					break
				}
			}
		}
		db.Close()
	}
	r, err := Run(context.Background(), Options{Suite: SuiteBird, File: file, DBRoot: root, Engine: os.Getenv("SYNTH")})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(r.Summary())
	nonEmpty := 0
	gdbs := map[string]*goldDB{}
	for _, q := range qs {
		g := gdbs[q.DBID]
		if g == nil {
			g, _ = openGold(DBPath(root, q.DBID))
			gdbs[q.DBID] = g
		}
		tb, err := g.run(context.Background(), q.Gold, 100000)
		if err == nil && len(tb.rows) > 0 && !(len(tb.rows) == 1 && (tb.rows[0][0] == nil || fmt.Sprint(tb.rows[0][0]) == "0")) {
			nonEmpty++
		}
	}
	fmt.Println("gold results with data:", nonEmpty, "of", len(qs))
	for _, c := range r.Cases {
		if c.Status == StatusFail || c.Status == StatusError {
			for _, q := range qs {
				if q.ID == c.ID {
					fmt.Printf("== %s %s\nGOLD: %s\nSQL: %s\n", c.ID, c.Reason, q.Gold, c.SQL)
				}
			}
		}
	}
}
