#!/usr/bin/env bash
# Empties the benchmark database named by HERALD_BENCH_POSTGRES_URL, so that every scenario starts
# from the same empty store and runs compare (a database that keeps the rows of earlier runs makes
# every insert and index walk slower from one run to the next), and then checkpointed, so that the
# previous scenario's writes are not flushed during the next one's measurements (a checkpoint
# also needs superuser or pg_checkpoint; without either it is skipped, with a line saying so). The
# URL must name a database the benchmarks own: its public schema is dropped with everything in it.
# psql comes from Debian's postgresql-client when missing.
#
#   HERALD_BENCH_POSTGRES_URL=postgres://… Benchmarks/fresh-postgres.sh
set -euo pipefail
URL=${HERALD_BENCH_POSTGRES_URL:?set HERALD_BENCH_POSTGRES_URL}
command -v psql >/dev/null || { apt-get update -qq && apt-get install -y -qq postgresql-client >/dev/null; }
PGOPTIONS='-c client_min_messages=warning' psql "$URL" -q -v ON_ERROR_STOP=1 -c 'DROP SCHEMA IF EXISTS public CASCADE' -c 'CREATE SCHEMA public' >/dev/null
psql "$URL" -q -c CHECKPOINT 2>/dev/null || echo "PostgreSQL bench database: CHECKPOINT not allowed for this user, skipped"
echo "PostgreSQL bench database emptied: $(psql "$URL" -At -c "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") tables left"
