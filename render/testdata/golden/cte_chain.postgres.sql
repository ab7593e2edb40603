WITH "rock" AS (SELECT "g"."GenreId" AS "GenreId", "g"."Name" AS "genre"
FROM "Genre" AS "g"
WHERE ("g"."Name" IN ('Rock', 'Metal'))), "rock_tracks" AS (SELECT "t"."Name" AS "Name", "r"."genre" AS "genre"
FROM "Track" AS "t"
INNER JOIN "rock" AS "r" ON "t"."GenreId" = "r"."GenreId")
SELECT "rt"."Name" AS "Name", "rt"."genre" AS "genre"
FROM "rock_tracks" AS "rt"
ORDER BY 1 ASC NULLS LAST, 2 ASC NULLS LAST
LIMIT 1000
