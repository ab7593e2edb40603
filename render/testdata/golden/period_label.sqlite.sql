SELECT strftime('%Y-%m', "i"."InvoiceDate") AS "month", strftime('%Y', "i"."InvoiceDate") AS "year", (strftime('%Y', "i"."InvoiceDate") || '-Q' || ((CAST(strftime('%m', "i"."InvoiceDate") AS INTEGER) + 2) / 3)) AS "quarter", strftime('%Y-%m-%d', "i"."InvoiceDate") AS "day", SUM("i"."Total") AS "revenue"
FROM "Invoice" AS "i"
GROUP BY strftime('%Y-%m', "i"."InvoiceDate"), strftime('%Y', "i"."InvoiceDate"), (strftime('%Y', "i"."InvoiceDate") || '-Q' || ((CAST(strftime('%m', "i"."InvoiceDate") AS INTEGER) + 2) / 3)), strftime('%Y-%m-%d', "i"."InvoiceDate")
ORDER BY "month" ASC NULLS LAST, 2 ASC NULLS LAST, 3 ASC NULLS LAST, 4 ASC NULLS LAST, 5 ASC NULLS LAST
LIMIT 1000
