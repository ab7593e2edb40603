SELECT "genre", "track", "ms", "rank_in_genre"
FROM (SELECT "genre", "track", "ms", "rank_in_genre"
FROM (SELECT "g"."Name" AS "genre", "t"."Name" AS "track", "t"."Milliseconds" AS "ms", RANK() OVER (PARTITION BY "g"."GenreId" ORDER BY "t"."Milliseconds" DESC NULLS LAST) AS "rank_in_genre"
FROM "Track" AS "t"
INNER JOIN "Genre" AS "g" ON "t"."GenreId" = "g"."GenreId") AS "q"
WHERE ("rank_in_genre" <= 2)) AS "q"
ORDER BY "genre" ASC NULLS LAST, "rank_in_genre" ASC NULLS LAST, 2 ASC NULLS LAST, 3 ASC NULLS LAST
LIMIT 1000
