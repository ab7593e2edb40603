SELECT "d"."Name" AS "Name", (SELECT "t"."Name" AS "Name"
FROM "Track" AS "t"
WHERE ("t"."GenreId" = "d"."GenreId")
ORDER BY "t"."Milliseconds" DESC NULLS LAST, 1 ASC NULLS LAST
LIMIT 1) AS "longest_track"
FROM (SELECT "g"."GenreId" AS "GenreId", "g"."Name" AS "Name"
FROM "Genre" AS "g"
ORDER BY "Name" ASC NULLS LAST, 1 ASC NULLS LAST
OFFSET 1) AS "d"
ORDER BY 1 ASC NULLS LAST, 2 ASC NULLS LAST
LIMIT 1000
