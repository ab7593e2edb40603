SELECT "ar"."Name" AS "artist", SUM(CASE WHEN abs(("il"."UnitPrice" * "il"."Quantity")) >= 1e28 THEN error('decimal out of range: the result is beyond ±10^28 (a product of two decimals ±10^18)') ELSE ("il"."UnitPrice" * "il"."Quantity") END) AS "revenue", COUNT(DISTINCT "il"."InvoiceLineId") AS "lines"
FROM "InvoiceLine" AS "il"
INNER JOIN "Track" AS "t" ON "il"."TrackId" = "t"."TrackId"
INNER JOIN "Album" AS "al" ON "t"."AlbumId" = "al"."AlbumId"
INNER JOIN "Artist" AS "ar" ON "al"."ArtistId" = "ar"."ArtistId"
WHERE ("il"."Quantity" > 0)
GROUP BY "ar"."ArtistId", "ar"."Name"
HAVING (COUNT(*) >= 1)
ORDER BY "revenue" DESC NULLS LAST, 1 ASC NULLS LAST, 3 ASC NULLS LAST
LIMIT 10
