-- Trigram matching for name search (case-insensitive partial words in Russian and English).
-- drizzle-kit cannot declare extensions, so this one migration is written by hand; pg_trgm is a
-- trusted extension, so the database owner may create it without superuser rights.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
