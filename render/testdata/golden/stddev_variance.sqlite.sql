SELECT "i"."BillingCountry" AS "country", STDDEV_SAMP(CAST("i"."Total" AS REAL)) AS "stddev_samp", STDDEV_POP(CAST("i"."InvoiceId" AS REAL)) AS "stddev_pop", VAR_SAMP(CAST("i"."Total" AS REAL)) AS "var_samp", VAR_POP(CAST("i"."InvoiceId" AS REAL)) AS "var_pop", STDDEV_SAMP(DISTINCT CAST("i"."Total" AS REAL)) AS "stddev", VAR_SAMP(CAST("i"."Total" AS REAL)) AS "variance"
FROM "Invoice" AS "i"
GROUP BY "i"."BillingCountry"
ORDER BY 1 ASC NULLS LAST, 2 ASC NULLS LAST, 3 ASC NULLS LAST, 4 ASC NULLS LAST, 5 ASC NULLS LAST, 6 ASC NULLS LAST, 7 ASC NULLS LAST
LIMIT 1000
