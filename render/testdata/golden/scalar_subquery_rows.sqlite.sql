SELECT "al"."Title" AS "title", (SELECT * FROM (SELECT "ar"."Name" AS "artist"
FROM "Artist" AS "ar"
WHERE ("ar"."ArtistId" = "al"."ArtistId")) GROUP BY NULL HAVING CASE WHEN COUNT(*) > 1 THEN json_extract('{}', 'more than one row returned by a subquery used as an expression') ELSE 1 END) AS "artist", SUBSTR("al"."Title", 4, CASE WHEN typeof((3 - LENGTH("al"."Title"))) = 'real' AND typeof(LENGTH("al"."Title")) = 'integer' THEN abs(-9223372036854775807 - 1) ELSE (3 - LENGTH("al"."Title")) END) AS "before_4th"
FROM "Album" AS "al"
ORDER BY "title" ASC NULLS LAST, 2 ASC NULLS LAST, 3 ASC NULLS LAST
LIMIT 1000
