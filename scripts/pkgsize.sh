#!/bin/sh
# pkgsize.sh lists the non-test Go lines of every package below the given
# patterns (default ./...), largest first: `sh scripts/pkgsize.sh ./engine/...`.
go list -f '{{.ImportPath}}{{range .GoFiles}} {{$.Dir}}/{{.}}{{end}}' "${@:-./...}" |
	while read -r pkg files; do
		[ -n "$files" ] && printf '%6d %s\n' "$(cat $files | wc -l)" "$pkg"
	done | sort -rn
