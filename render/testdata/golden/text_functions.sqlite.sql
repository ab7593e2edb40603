SELECT UPPER("t"."Name") AS "up", LOWER("t"."Name") AS "low", TRIM("t"."Name") AS "trimmed", LENGTH("t"."Name") AS "len", SUBSTR("t"."Name", CASE WHEN 2 < 1 THEN 1 ELSE 2 END) AS "tail", SUBSTR("t"."Name", CASE WHEN 1 < 1 THEN 1 ELSE 1 END, CASE WHEN 1 < 1 THEN (CASE WHEN (1 + 3 - 1) < 0 THEN 0 ELSE (1 + 3 - 1) END) ELSE 3 END) AS "head", ("t"."Name" || ' / ' || COALESCE("t"."Composer", '?')) AS "label", REPLACE("t"."Name", 'a', '4') AS "leet", NULLIF("t"."Composer", '') AS "composer"
FROM "Track" AS "t"
ORDER BY "t"."TrackId" ASC NULLS LAST, 1 ASC NULLS LAST, 2 ASC NULLS LAST, 3 ASC NULLS LAST, 4 ASC NULLS LAST, 5 ASC NULLS LAST, 6 ASC NULLS LAST, 7 ASC NULLS LAST, 8 ASC NULLS LAST, 9 ASC NULLS LAST
LIMIT 1000
