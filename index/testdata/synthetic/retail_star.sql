-- A star schema whose fact table is named after neither its measures nor
-- its grain ("ledger_lines"), with dimensions around it.
CREATE TABLE dim_calendar (day_key INTEGER PRIMARY KEY, calendar_date TEXT, year INTEGER, quarter INTEGER, month_name TEXT, weekday TEXT);
CREATE TABLE dim_store (store_key INTEGER PRIMARY KEY, store_name TEXT, city TEXT, region TEXT, floor_area REAL);
CREATE TABLE dim_item (item_key INTEGER PRIMARY KEY, item_name TEXT, category TEXT, brand TEXT, unit_price REAL);
CREATE TABLE dim_shopper (shopper_key INTEGER PRIMARY KEY, shopper_name TEXT, segment TEXT, country TEXT, signup_year INTEGER);
CREATE TABLE dim_promotion (promotion_key INTEGER PRIMARY KEY, promotion_name TEXT, channel TEXT, discount_rate REAL);
CREATE TABLE ledger_lines (line_id INTEGER PRIMARY KEY,
  day_key INTEGER REFERENCES dim_calendar(day_key), store_key INTEGER REFERENCES dim_store(store_key),
  item_key INTEGER REFERENCES dim_item(item_key), shopper_key INTEGER REFERENCES dim_shopper(shopper_key),
  promotion_key INTEGER REFERENCES dim_promotion(promotion_key),
  units_sold INTEGER, gross_revenue REAL, discount_amount REAL, net_revenue REAL, margin REAL);
CREATE TABLE stock_snapshot (snapshot_id INTEGER PRIMARY KEY, day_key INTEGER REFERENCES dim_calendar(day_key),
  store_key INTEGER REFERENCES dim_store(store_key), item_key INTEGER REFERENCES dim_item(item_key), on_hand INTEGER, on_order INTEGER);
CREATE TABLE store_manager (manager_id INTEGER PRIMARY KEY, store_key INTEGER REFERENCES dim_store(store_key), manager_name TEXT, hired TEXT);
CREATE TABLE supplier_contract (contract_id INTEGER PRIMARY KEY, item_key INTEGER REFERENCES dim_item(item_key), supplier TEXT, cost_price REAL, valid_from TEXT);
INSERT INTO dim_calendar VALUES (20230101, '2023-01-01', 2023, 1, 'January', 'Sunday'), (20240101, '2024-01-01', 2024, 1, 'January', 'Monday');
INSERT INTO dim_store VALUES (1, 'Northgate', 'York', 'North', 1200), (2, 'Southbank', 'Brighton', 'South', 900);
INSERT INTO dim_item VALUES (1, 'Kettle', 'Kitchen', 'Brew', 25.0), (2, 'Lamp', 'Lighting', 'Glow', 40.0);
INSERT INTO dim_shopper VALUES (1, 'R. Franklin', 'Consumer', 'UK', 2019);
INSERT INTO dim_promotion VALUES (1, 'Spring Sale', 'Email', 0.1);
INSERT INTO ledger_lines VALUES (1, 20230101, 1, 1, 1, 1, 3, 75.0, 7.5, 67.5, 20.0), (2, 20240101, 2, 2, 1, 1, 1, 40.0, 0, 40.0, 12.0);
INSERT INTO stock_snapshot VALUES (1, 20230101, 1, 1, 10, 5);
INSERT INTO store_manager VALUES (1, 1, 'P. Curie', '2018-02-02');
INSERT INTO supplier_contract VALUES (1, 1, 'Kettles Inc', 12.0, '2022-01-01');
