-- AI credit reservation ids order byte-wise, as on SQLite, whatever the database's default collation: 0031
-- created the table after 0002 and 0033 had given every other id COLLATE "C", and left this one out.
ALTER TABLE "ai_credit_reservations" ALTER COLUMN "id" TYPE text COLLATE "C";
