SELECT * FROM (SELECT "i"."InvoiceId" AS "InvoiceId", date("i"."InvoiceDate", 'start of year') AS "t_year", date("i"."InvoiceDate", 'start of month', '-' || ((CAST(strftime('%m', "i"."InvoiceDate") AS INTEGER) - 1) % 3) || ' months') AS "t_quarter", date("i"."InvoiceDate", 'start of month') AS "t_month", date("i"."InvoiceDate") AS "t_day"
FROM "Invoice" AS "i"
WHERE (date("i"."InvoiceDate", 'start of month') >= '2021-01-01')
LIMIT 1000 OFFSET 0) AS "first_rows"
ORDER BY 1 ASC NULLS LAST, 2 ASC NULLS LAST, 3 ASC NULLS LAST, 4 ASC NULLS LAST, 5 ASC NULLS LAST
