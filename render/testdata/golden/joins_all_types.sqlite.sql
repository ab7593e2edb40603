SELECT * FROM (SELECT "t"."Name" AS "track", "g"."Name" AS "genre", "al"."Title" AS "Title", "ar"."Name" AS "artist"
FROM "Track" AS "t"
LEFT JOIN "Genre" AS "g" ON "t"."GenreId" = "g"."GenreId"
RIGHT JOIN "Album" AS "al" ON "t"."AlbumId" = "al"."AlbumId"
FULL JOIN "Artist" AS "ar" ON "al"."ArtistId" = "ar"."ArtistId" AND (("ar"."Name" <> "g"."Name"))
LIMIT 1000 OFFSET 0) AS "first_rows"
ORDER BY 1 ASC NULLS LAST, 2 ASC NULLS LAST, 3 ASC NULLS LAST, 4 ASC NULLS LAST
