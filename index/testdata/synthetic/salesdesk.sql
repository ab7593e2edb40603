-- A sales desk whose reports became views: two base tables joined by a
-- key, and eight views over them named after the sales they report.
CREATE TABLE employees (emp_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT, hired TEXT);
CREATE TABLE orders (order_id INTEGER PRIMARY KEY, emp_id INTEGER REFERENCES employees(emp_id), order_dt TEXT, amount NUMERIC, region TEXT);
INSERT INTO employees VALUES (1, 'Ann', 'Lee', '2019-03-01'), (2, 'Bo', 'Kim', '2021-06-15');
INSERT INTO orders VALUES (1, 1, '2024-01-05', 250.00, 'north'), (2, 2, '2024-02-11', 90.50, 'south'), (3, 1, '2024-03-20', 40.00, 'north');
CREATE VIEW sales_totals AS SELECT SUM(amount) AS sales_total, COUNT(*) AS sales_count FROM orders;
CREATE VIEW sales_by_quarter AS SELECT substr(order_dt, 1, 4) AS sales_year, (CAST(substr(order_dt, 6, 2) AS INTEGER) + 2) / 3 AS sales_quarter, SUM(amount) AS sales FROM orders GROUP BY 1, 2;
CREATE VIEW sales_by_region AS SELECT region AS sales_region, SUM(amount) AS sales, COUNT(*) AS sales_count FROM orders GROUP BY 1;
CREATE VIEW sales_summary AS SELECT order_dt AS sale_date, amount AS sale_amount FROM orders;
CREATE VIEW top_sales AS SELECT order_id AS sale_id, amount AS sale_amount FROM orders ORDER BY amount DESC LIMIT 10;
CREATE VIEW sales_2024 AS SELECT order_id AS sale_id, order_dt AS sale_date, amount AS sale_amount FROM orders WHERE order_dt LIKE '2024%';
CREATE VIEW sales_ranked AS SELECT order_id AS sale_id, amount AS sale_amount, region AS sales_region FROM orders ORDER BY amount DESC;
CREATE VIEW sales_per_day AS SELECT order_dt AS sale_date, COUNT(*) AS sales_count, SUM(amount) AS sales FROM orders GROUP BY 1;
