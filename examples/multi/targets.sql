-- Sales planning data for the cross-datasource example: yearly revenue
-- targets per genre, per support rep, per sales region and for the whole
-- company, and the sales region of each country. Made up for the example;
-- genre names, countries and employee ids are those of Chinook.
-- BuildTargets (targets.go) runs this file to build targets.duckdb.

CREATE TABLE genre_targets (
    genre          VARCHAR       NOT NULL,
    year           INTEGER       NOT NULL,
    revenue_target DECIMAL(10,2) NOT NULL,
    PRIMARY KEY (genre, year)
);
COMMENT ON TABLE genre_targets IS 'Yearly revenue target per music genre (genre names as in the store)';

INSERT INTO genre_targets VALUES
    ('Rock', 2024, 150.00), ('Rock', 2025, 180.00),
    ('Latin', 2024, 60.00), ('Latin', 2025, 75.00),
    ('Metal', 2024, 70.00), ('Metal', 2025, 50.00),
    ('Alternative & Punk', 2024, 40.00), ('Alternative & Punk', 2025, 50.00),
    ('TV Shows', 2024, 20.00), ('TV Shows', 2025, 20.00),
    ('Jazz', 2024, 10.00), ('Jazz', 2025, 15.00),
    ('Blues', 2024, 10.00), ('Blues', 2025, 8.00),
    ('Classical', 2024, 15.00), ('Classical', 2025, 10.00),
    ('Drama', 2024, 15.00), ('Drama', 2025, 12.00),
    ('R&B/Soul', 2024, 8.00), ('R&B/Soul', 2025, 8.00),
    ('Comedy', 2024, 10.00), ('Comedy', 2025, 10.00),
    ('Sci Fi & Fantasy', 2024, 10.00), ('Sci Fi & Fantasy', 2025, 10.00),
    ('Reggae', 2024, 5.00), ('Reggae', 2025, 5.00),
    ('Pop', 2024, 8.00), ('Pop', 2025, 8.00),
    ('Soundtrack', 2024, 5.00), ('Soundtrack', 2025, 4.00);

-- employee_code is the store's employee id as text, as the planning
-- spreadsheet keeps it; 'TBD' is a support rep not hired yet.
CREATE TABLE rep_targets (
    employee_code  VARCHAR       NOT NULL,
    year           INTEGER       NOT NULL,
    sales_target   DECIMAL(10,2) NOT NULL,
    invoice_target INTEGER       NOT NULL,
    PRIMARY KEY (employee_code, year)
);
COMMENT ON TABLE rep_targets IS 'Yearly sales and invoice-count targets per support rep';
COMMENT ON COLUMN rep_targets.employee_code IS 'The support rep''s employee id in the store, as text; TBD for a rep not hired yet';

INSERT INTO rep_targets VALUES
    ('3', 2024, 150.00, 30), ('4', 2024, 180.00, 28), ('5', 2024, 140.00, 26),
    ('3', 2025, 160.00, 30), ('4', 2025, 170.00, 28), ('5', 2025, 130.00, 25),
    ('TBD', 2025, 60.00, 10);

CREATE TABLE country_regions (
    country VARCHAR NOT NULL PRIMARY KEY,
    region  VARCHAR NOT NULL
);
COMMENT ON TABLE country_regions IS 'The sales region each country belongs to';

INSERT INTO country_regions VALUES
    ('USA', 'North America'), ('Canada', 'North America'),
    ('Argentina', 'South America'), ('Brazil', 'South America'), ('Chile', 'South America'),
    ('India', 'Asia Pacific'), ('Australia', 'Asia Pacific'),
    ('Austria', 'Europe'), ('Belgium', 'Europe'), ('Czech Republic', 'Europe'), ('Denmark', 'Europe'),
    ('Finland', 'Europe'), ('France', 'Europe'), ('Germany', 'Europe'), ('Hungary', 'Europe'),
    ('Ireland', 'Europe'), ('Italy', 'Europe'), ('Netherlands', 'Europe'), ('Norway', 'Europe'),
    ('Poland', 'Europe'), ('Portugal', 'Europe'), ('Spain', 'Europe'), ('Sweden', 'Europe'),
    ('United Kingdom', 'Europe');

CREATE TABLE region_targets (
    region         VARCHAR       NOT NULL,
    year           INTEGER       NOT NULL,
    revenue_target DECIMAL(10,2) NOT NULL,
    PRIMARY KEY (region, year)
);
COMMENT ON TABLE region_targets IS 'Yearly revenue target per sales region';

INSERT INTO region_targets VALUES
    ('North America', 2024, 160.00), ('North America', 2025, 150.00),
    ('South America', 2024, 60.00), ('South America', 2025, 70.00),
    ('Europe', 2024, 220.00), ('Europe', 2025, 210.00),
    ('Asia Pacific', 2024, 25.00), ('Asia Pacific', 2025, 20.00);

CREATE TABLE company_targets (
    year           INTEGER       NOT NULL PRIMARY KEY,
    revenue_target DECIMAL(10,2) NOT NULL
);
COMMENT ON TABLE company_targets IS 'Yearly revenue target of the whole store';

INSERT INTO company_targets VALUES (2024, 460.00), (2025, 470.00);
