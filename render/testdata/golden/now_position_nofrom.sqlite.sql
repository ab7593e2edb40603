SELECT CAST(strftime('%Y', date('now')) AS INTEGER) AS "this_year", (strftime('%Y-%m-%d %H:%M:%f', datetime('now')) > '2000-01-01 00:00:00.000') AS "after_2000", instr('a:b', ':') AS "colon_at", (SELECT COUNT(*) AS "n"
FROM "Genre" AS "g") AS "genres"
ORDER BY 1 ASC NULLS LAST, 2 ASC NULLS LAST, 3 ASC NULLS LAST, 4 ASC NULLS LAST
LIMIT 1000
