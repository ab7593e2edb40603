SELECT REPLACE(UPPER("t"."Name"), 'ß', 'ẞ') AS "up", LOWER("t"."Name") AS "low", TRIM("t"."Name") AS "trimmed", LENGTH("t"."Name") AS "len", SUBSTR("t"."Name", CAST(2 AS INTEGER)) AS "tail", SUBSTR("t"."Name", CAST(1 AS INTEGER), CAST(3 AS INTEGER)) AS "head", ("t"."Name" || ' / ' || COALESCE("t"."Composer", '?')) AS "label", REPLACE("t"."Name", 'a', '4') AS "leet", NULLIF("t"."Composer", '') AS "composer"
FROM "Track" AS "t"
ORDER BY "t"."TrackId" ASC NULLS LAST, 1 ASC NULLS LAST, 2 ASC NULLS LAST, 3 ASC NULLS LAST, 4 ASC NULLS LAST, 5 ASC NULLS LAST, 6 ASC NULLS LAST, 7 ASC NULLS LAST, 8 ASC NULLS LAST, 9 ASC NULLS LAST
LIMIT 1000
