SELECT * FROM (SELECT "i"."InvoiceId" AS "InvoiceId", CAST(strftime('%Y', "i"."InvoiceDate") AS INTEGER) AS "p_year", ((CAST(strftime('%m', "i"."InvoiceDate") AS INTEGER) + 2) / 3) AS "p_quarter", CAST(strftime('%m', "i"."InvoiceDate") AS INTEGER) AS "p_month", CAST(strftime('%d', "i"."InvoiceDate") AS INTEGER) AS "p_day", CAST(strftime('%m', "cu"."SignupDate") AS INTEGER) AS "signup_month", CAST(strftime('%V', "i"."InvoiceDate") AS INTEGER) AS "p_week", CAST(strftime('%j', "i"."InvoiceDate") AS INTEGER) AS "p_doy", CAST(strftime('%w', "i"."InvoiceDate") AS INTEGER) AS "p_dow", CAST(strftime('%H', "i"."InvoiceDate") AS INTEGER) AS "p_hour", CAST(strftime('%M', "i"."InvoiceDate") AS INTEGER) AS "p_minute"
FROM "Invoice" AS "i"
INNER JOIN "Customer" AS "cu" ON "i"."CustomerId" = "cu"."CustomerId"
WHERE (CAST(strftime('%Y', "i"."InvoiceDate") AS INTEGER) = 2021)
LIMIT 1000 OFFSET 0) AS "first_rows"
ORDER BY 1 ASC NULLS LAST, 2 ASC NULLS LAST, 3 ASC NULLS LAST, 4 ASC NULLS LAST, 5 ASC NULLS LAST, 6 ASC NULLS LAST, 7 ASC NULLS LAST, 8 ASC NULLS LAST, 9 ASC NULLS LAST, 10 ASC NULLS LAST, 11 ASC NULLS LAST
