#!/bin/sh
# PostgreSQL's image runs this once, on an empty data directory: the roles of
# runtime/database_roles.sql (the tables' owner is the image's POSTGRES_USER), and the
# application's role's password.
set -eu
psql -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d postgres \
    -v owner="$POSTGRES_USER" -v app=atu_app -v database="$POSTGRES_DB" \
    -f /atu/database_roles.sql
# From standard input: psql puts its variables into a script, not into -c.
echo "ALTER ROLE atu_app PASSWORD :'password';" | psql -v ON_ERROR_STOP=1 \
    -U "$POSTGRES_USER" -d postgres -v password="$ATU_APP_PASSWORD"
