SELECT "g"."Name" AS "genre", COUNT(*) AS "tracks", CAST(SUM("t"."Milliseconds") AS BIGINT) AS "total_ms"
FROM "Track" AS "t"
INNER JOIN "Genre" AS "g" ON "t"."GenreId" = "g"."GenreId"
GROUP BY "g"."Name"
HAVING (COUNT(*) > 1)
ORDER BY "tracks" DESC NULLS LAST, 1 ASC NULLS LAST, 3 ASC NULLS LAST
LIMIT 1000
