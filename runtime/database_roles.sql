-- The roles of a production database (runtime/database_roles.py), created once by a
-- PostgreSQL superuser; running it again changes nothing. For example:
--   psql -v owner=atu -v app=atu_app -v database=atu -f runtime/database_roles.sql
-- The owner owns the database (so the public schema, and every table its migrations
-- create); the application's role may only connect. Give each a password of its own
-- where connections are not trusted: \password atu and \password atu_app.
\set ON_ERROR_STOP on
SELECT format('CREATE ROLE %I LOGIN', :'owner')
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'owner') \gexec
SELECT format('CREATE ROLE %I LOGIN', :'app')
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'app') \gexec
-- Whatever an earlier setup left: the application's role is nothing more than a login.
SELECT format('ALTER ROLE %I NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS', :'app') \gexec
SELECT format('CREATE DATABASE %I OWNER %I', :'database', :'owner')
WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = :'database') \gexec
SELECT format('ALTER DATABASE %I OWNER TO %I', :'database', :'owner') \gexec
