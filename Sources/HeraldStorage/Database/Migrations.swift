import Foundation
import SQLKit

/// Versioned schema changes, applied in order at start and by `herald migrate`. A migration is
/// never edited once released; a change is a new migration.
struct Migration: Sendable {
    let version: Int
    let name: String
    let statements: [String]
    /// Statements run on PostgreSQL only, after ``statements``.
    var postgres: [String] = []
    /// Statements run on SQLite only, after ``statements``.
    var sqlite: [String] = []
}

extension SQLStore {
    static let migrations: [Migration] = [
        Migration(
            version: 1,
            name: "core",
            statements: [
                """
                CREATE TABLE apps (
                    id TEXT PRIMARY KEY, name TEXT NOT NULL, region TEXT NOT NULL,
                    push_enabled BOOLEAN NOT NULL, max_tokens_per_user INTEGER NOT NULL, created_at BIGINT NOT NULL)
                """,
                """
                CREATE TABLE api_keys (
                    id TEXT PRIMARY KEY, app_id TEXT NOT NULL, key_hash TEXT NOT NULL UNIQUE,
                    created_at BIGINT NOT NULL, revoked_at BIGINT)
                """,
                "CREATE INDEX api_keys_by_app ON api_keys (app_id)",
                """
                CREATE TABLE users (
                    app_id TEXT NOT NULL, uid TEXT NOT NULL, name TEXT NOT NULL, avatar TEXT, metadata TEXT,
                    tags TEXT NOT NULL, locale TEXT, time_zone TEXT, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL,
                    PRIMARY KEY (app_id, uid))
                """,
                """
                CREATE TABLE chat_groups (
                    app_id TEXT NOT NULL, guid TEXT NOT NULL, name TEXT NOT NULL, icon TEXT, type TEXT NOT NULL,
                    password_hash TEXT, metadata TEXT, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL,
                    PRIMARY KEY (app_id, guid))
                """,
                """
                CREATE TABLE group_members (
                    app_id TEXT NOT NULL, guid TEXT NOT NULL, uid TEXT NOT NULL, scope TEXT NOT NULL, joined_at BIGINT NOT NULL,
                    PRIMARY KEY (app_id, guid, uid))
                """,
                "CREATE INDEX group_members_by_user ON group_members (app_id, uid)",
                """
                CREATE TABLE sessions (
                    id TEXT PRIMARY KEY, app_id TEXT NOT NULL, uid TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE,
                    device_name TEXT, created_at BIGINT NOT NULL, expires_at BIGINT)
                """,
                "CREATE INDEX sessions_by_user ON sessions (app_id, uid)",
                """
                CREATE TABLE providers (
                    app_id TEXT NOT NULL, provider_id TEXT NOT NULL, kind TEXT NOT NULL, config TEXT NOT NULL,
                    secret TEXT NOT NULL, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL,
                    PRIMARY KEY (app_id, provider_id))
                """,
                """
                CREATE TABLE push_tokens (
                    app_id TEXT NOT NULL, push_token TEXT NOT NULL, uid TEXT NOT NULL, session_id TEXT NOT NULL,
                    provider_id TEXT NOT NULL, platform TEXT NOT NULL, token_kind TEXT NOT NULL,
                    created_at BIGINT NOT NULL, last_seen_at BIGINT NOT NULL,
                    PRIMARY KEY (app_id, push_token))
                """,
                "CREATE INDEX push_tokens_by_user ON push_tokens (app_id, uid, last_seen_at)",
                "CREATE INDEX push_tokens_by_session ON push_tokens (session_id)",
                "CREATE INDEX push_tokens_by_provider ON push_tokens (app_id, provider_id)",
            ]
        ),
        Migration(
            version: 2,
            name: "pruned tokens",
            statements: [
                """
                CREATE TABLE pruned_tokens (
                    app_id TEXT NOT NULL, push_token TEXT NOT NULL, uid TEXT NOT NULL, session_id TEXT NOT NULL,
                    provider_id TEXT NOT NULL, platform TEXT NOT NULL, created_at BIGINT NOT NULL, last_seen_at BIGINT NOT NULL,
                    reason TEXT NOT NULL, hint TEXT, invalid_since BIGINT, pruned_at BIGINT NOT NULL)
                """,
                "CREATE INDEX pruned_tokens_by_user ON pruned_tokens (app_id, uid, pruned_at)",
            ]
        ),
        Migration(
            version: 3,
            name: "realtime presence and settings",
            statements: [
                "ALTER TABLE apps ADD COLUMN settings TEXT",
                """
                CREATE TABLE herald_instances (
                    instance_id TEXT PRIMARY KEY, started_at BIGINT NOT NULL, heartbeat_at BIGINT NOT NULL)
                """,
                """
                CREATE TABLE presence (
                    session_id TEXT NOT NULL, instance_id TEXT NOT NULL, app_id TEXT NOT NULL, uid TEXT NOT NULL,
                    since BIGINT NOT NULL, offline_at BIGINT,
                    PRIMARY KEY (session_id, instance_id))
                """,
                "CREATE INDEX presence_by_user ON presence (app_id, uid)",
                "CREATE INDEX presence_by_instance ON presence (instance_id)",
                """
                CREATE TABLE realtime_payloads (id TEXT PRIMARY KEY, payload TEXT NOT NULL, created_at BIGINT NOT NULL)
                """,
            ]
        ),
        Migration(
            version: 4,
            name: "notification engine",
            statements: [
                "ALTER TABLE chat_groups ADD COLUMN owner TEXT",
                """
                CREATE TABLE events (
                    id TEXT PRIMARY KEY, app_id TEXT NOT NULL, client_id TEXT, type TEXT NOT NULL, body TEXT NOT NULL,
                    received_at BIGINT NOT NULL, status TEXT NOT NULL, cursor TEXT, lease_until BIGINT,
                    recipients INTEGER NOT NULL DEFAULT 0, finished_at BIGINT)
                """,
                "CREATE UNIQUE INDEX events_by_client_id ON events (app_id, client_id) WHERE client_id IS NOT NULL",
                "CREATE INDEX events_to_fan_out ON events (status, received_at)",
                "CREATE INDEX events_by_app ON events (app_id, received_at)",
                """
                CREATE TABLE deliveries (
                    id TEXT PRIMARY KEY, app_id TEXT NOT NULL, event_id TEXT NOT NULL, uid TEXT NOT NULL,
                    channel TEXT NOT NULL, target TEXT NOT NULL, session_id TEXT, provider_id TEXT, platform TEXT, route TEXT,
                    locale TEXT, badge INTEGER, unread INTEGER,
                    status TEXT NOT NULL, reason TEXT, attempts INTEGER NOT NULL DEFAULT 0,
                    next_attempt_at BIGINT, lease_until BIGINT, expires_at BIGINT,
                    provider_status INTEGER, provider_message_id TEXT, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL)
                """,
                "CREATE UNIQUE INDEX deliveries_once ON deliveries (event_id, uid, target)",
                "CREATE INDEX deliveries_due ON deliveries (status, next_attempt_at)",
                "CREATE INDEX deliveries_by_user ON deliveries (app_id, uid, created_at)",
                "CREATE INDEX deliveries_by_app ON deliveries (app_id, created_at)",
                """
                CREATE TABLE preferences (
                    app_id TEXT NOT NULL, uid TEXT NOT NULL, prefs TEXT NOT NULL, updated_at BIGINT NOT NULL,
                    PRIMARY KEY (app_id, uid))
                """,
                """
                CREATE TABLE mutes (
                    app_id TEXT NOT NULL, uid TEXT NOT NULL, conversation_id TEXT NOT NULL, until BIGINT, created_at BIGINT NOT NULL,
                    PRIMARY KEY (app_id, uid, conversation_id))
                """,
                """
                CREATE TABLE push_templates (
                    app_id TEXT NOT NULL, event_type TEXT NOT NULL, receiver_type TEXT NOT NULL, locale TEXT NOT NULL,
                    template TEXT NOT NULL, updated_at BIGINT NOT NULL,
                    PRIMARY KEY (app_id, event_type, receiver_type, locale))
                """,
                """
                CREATE TABLE unread_counts (
                    app_id TEXT NOT NULL, uid TEXT NOT NULL, conversation_id TEXT NOT NULL, count INTEGER NOT NULL,
                    updated_at BIGINT NOT NULL,
                    PRIMARY KEY (app_id, uid, conversation_id))
                """,
            ]
        ),
        // Work queues indexed by what is still open: a delivered push or a finished event leaves
        // the claim indexes, which stay the size of the backlog however long the log grows.
        Migration(
            version: 5,
            name: "open work indexes",
            statements: [
                "DROP INDEX events_to_fan_out",
                "CREATE INDEX events_open ON events (received_at) WHERE status <> 'done'",
                "DROP INDEX deliveries_due",
                "CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending'",
                "CREATE INDEX deliveries_leased ON deliveries (lease_until) WHERE status = 'sending'",
            ]
        ),
        // The in-app feed (CometChat Campaigns): set-up records, items per user newest first (ids grow with
        // time), campaigns and their claims, engagements.
        Migration(
            version: 6,
            name: "notification feed and campaigns",
            statements: [
                """
                CREATE TABLE feed_setup (
                    app_id TEXT NOT NULL, kind TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL,
                    created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL,
                    PRIMARY KEY (app_id, kind, id))
                """,
                """
                CREATE TABLE feed_items (
                    app_id TEXT NOT NULL, uid TEXT NOT NULL, id TEXT NOT NULL, campaign_id TEXT, channel_id TEXT, category_id TEXT,
                    category TEXT, content TEXT NOT NULL, metadata TEXT NOT NULL, tags TEXT NOT NULL, sender TEXT NOT NULL,
                    sent_at BIGINT NOT NULL, read_at BIGINT, delivered_at BIGINT, push_id TEXT, push_title TEXT, push_body TEXT,
                    push_delivered_at BIGINT, push_clicked_at BIGINT,
                    PRIMARY KEY (app_id, uid, id))
                """,
                "CREATE UNIQUE INDEX feed_items_once ON feed_items (app_id, campaign_id, uid) WHERE campaign_id IS NOT NULL",
                "CREATE INDEX feed_items_unread ON feed_items (app_id, uid, id) WHERE read_at IS NULL",
                "CREATE INDEX feed_items_by_category ON feed_items (app_id, uid, category_id, id)",
                "CREATE UNIQUE INDEX feed_items_by_id ON feed_items (id)",
                "CREATE INDEX feed_items_by_push ON feed_items (push_id) WHERE push_id IS NOT NULL",
                """
                CREATE TABLE feed_engagements (
                    app_id TEXT NOT NULL, item_id TEXT NOT NULL, interaction TEXT NOT NULL, uid TEXT NOT NULL, campaign_id TEXT,
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (app_id, item_id, interaction))
                """,
                "CREATE INDEX feed_engagements_by_campaign ON feed_engagements (campaign_id) WHERE campaign_id IS NOT NULL",
                """
                CREATE TABLE campaigns (
                    app_id TEXT NOT NULL, id TEXT NOT NULL, status TEXT NOT NULL, send_at BIGINT, lease_until BIGINT, body TEXT NOT NULL,
                    cursor TEXT, audience_size INTEGER NOT NULL, items_created INTEGER NOT NULL, pushes_queued INTEGER NOT NULL,
                    started_at BIGINT, finished_at BIGINT, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL,
                    PRIMARY KEY (app_id, id))
                """,
                "CREATE INDEX campaigns_due ON campaigns (send_at) WHERE status = 'scheduled'",
                "CREATE INDEX campaigns_leased ON campaigns (lease_until) WHERE status = 'sending'",
            ]
        ),
        // Credentials are found by the first 16 characters of their hash; the whole hash is then
        // compared in constant time in the process (see `Authenticator`).
        Migration(
            version: 7,
            name: "credential lookup by hash prefix",
            statements: [
                "CREATE INDEX api_keys_by_hash_prefix ON api_keys (substr(key_hash, 1, 16))",
                "CREATE INDEX sessions_by_hash_prefix ON sessions (substr(token_hash, 1, 16))",
            ]
        ),
        // Why a finished event reached nobody (unknown user or group, a group with no members).
        Migration(
            version: 8,
            name: "event reason",
            statements: [
                "ALTER TABLE events ADD COLUMN reason TEXT"
            ]
        ),
        // The W3C traceparent of the request that posted an event, so that its fan-out joins the
        // request's trace even when another process (or this one, restarted) claims it.
        Migration(
            version: 9,
            name: "event trace parent",
            statements: [
                "ALTER TABLE events ADD COLUMN trace_parent TEXT"
            ]
        ),
        // What a delivery tells of: an event, or a campaign's feed item (told apart by a column,
        // not by the id's prefix).
        Migration(
            version: 10,
            name: "delivery subject",
            statements: [
                "ALTER TABLE deliveries ADD COLUMN subject TEXT NOT NULL DEFAULT 'event'",
                #"UPDATE deliveries SET subject = 'feed_item' WHERE event_id LIKE 'fit\_%' ESCAPE '\'"#,
            ]
        ),
        // Claims name the process that holds them, so that the claims of a process that stopped
        // or died are taken over at once instead of when their leases run out.
        Migration(
            version: 11,
            name: "claim owners",
            statements: [
                "ALTER TABLE events ADD COLUMN lease_owner TEXT",
                "ALTER TABLE deliveries ADD COLUMN lease_owner TEXT",
                "ALTER TABLE campaigns ADD COLUMN lease_owner TEXT",
            ]
        ),
        // A token registration in one round trip on PostgreSQL: its five statements (lock the user,
        // lock the token's previous owner, upsert, the other tokens of its kind when they must be
        // unique, the tokens beyond the cap) run inside the server, as the SQLite writer runs them
        // in its transaction. ``SQLStore/register(_:unique:maxPerUser:)`` says what each does.
        Migration(
            version: 12,
            name: "token registration in one round trip",
            statements: [],
            postgres: [
                """
                CREATE FUNCTION herald_register_token(
                    p_app_id TEXT, p_token TEXT, p_uid TEXT, p_session_id TEXT, p_provider_id TEXT, p_platform TEXT,
                    p_kind TEXT, p_created_at BIGINT, p_last_seen_at BIGINT, p_unique BOOLEAN, p_max_per_user BIGINT
                ) RETURNS TABLE (user_found BOOLEAN, previous_uid TEXT, stored_created_at BIGINT, removed TEXT[])
                LANGUAGE plpgsql AS $$
                DECLARE
                    more TEXT[];
                BEGIN
                    removed := '{}';
                    PERFORM 1 FROM users u WHERE u.app_id = p_app_id AND u.uid = p_uid FOR UPDATE;
                    user_found := FOUND;
                    IF NOT user_found THEN
                        RETURN NEXT;
                        RETURN;
                    END IF;
                    SELECT t.uid INTO previous_uid FROM push_tokens t
                    WHERE t.app_id = p_app_id AND t.push_token = p_token FOR UPDATE;
                    INSERT INTO push_tokens AS t (
                        app_id, push_token, uid, session_id, provider_id, platform, token_kind, created_at, last_seen_at)
                    VALUES (p_app_id, p_token, p_uid, p_session_id, p_provider_id, p_platform, p_kind, p_created_at, p_last_seen_at)
                    ON CONFLICT (app_id, push_token) DO UPDATE SET
                        uid = excluded.uid, session_id = excluded.session_id, provider_id = excluded.provider_id,
                        platform = excluded.platform, token_kind = excluded.token_kind, last_seen_at = excluded.last_seen_at
                    RETURNING t.created_at INTO stored_created_at;
                    IF p_unique THEN
                        WITH gone AS (
                            DELETE FROM push_tokens t
                            WHERE t.app_id = p_app_id AND t.uid = p_uid AND t.token_kind = p_kind AND t.push_token <> p_token
                            RETURNING t.push_token)
                        SELECT coalesce(array_agg(gone.push_token), '{}') INTO more FROM gone;
                        removed := removed || more;
                    END IF;
                    WITH gone AS (
                        DELETE FROM push_tokens t
                        WHERE t.app_id = p_app_id AND t.uid = p_uid AND t.push_token NOT IN (
                            SELECT k.push_token FROM push_tokens k WHERE k.app_id = p_app_id AND k.uid = p_uid
                            ORDER BY k.last_seen_at DESC, k.push_token DESC LIMIT p_max_per_user)
                        RETURNING t.push_token)
                    SELECT coalesce(array_agg(gone.push_token), '{}') INTO more FROM gone;
                    removed := removed || more;
                    RETURN NEXT;
                END
                $$
                """
            ]
        ),
        // How a delivery's push is shaped beyond its route (a mention, the content mode, a clear,
        // a retract, a burst summary): JSON, NULL for a plain notification. A device's key for
        // encrypted pushes (RFC 8291's p256dh and auth, base64url) beside its token, which the
        // one-trip registration of migration 12 now stores too.
        Migration(
            version: 13,
            name: "delivery style and device keys",
            statements: [
                "ALTER TABLE deliveries ADD COLUMN style TEXT",
                "ALTER TABLE push_tokens ADD COLUMN encryption TEXT",
            ],
            postgres: [
                "DROP FUNCTION herald_register_token(TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT, BIGINT, BOOLEAN, BIGINT)",
                """
                CREATE FUNCTION herald_register_token(
                    p_app_id TEXT, p_token TEXT, p_uid TEXT, p_session_id TEXT, p_provider_id TEXT, p_platform TEXT,
                    p_kind TEXT, p_created_at BIGINT, p_last_seen_at BIGINT, p_unique BOOLEAN, p_max_per_user BIGINT,
                    p_encryption TEXT
                ) RETURNS TABLE (user_found BOOLEAN, previous_uid TEXT, stored_created_at BIGINT, removed TEXT[])
                LANGUAGE plpgsql AS $$
                DECLARE
                    more TEXT[];
                BEGIN
                    removed := '{}';
                    PERFORM 1 FROM users u WHERE u.app_id = p_app_id AND u.uid = p_uid FOR UPDATE;
                    user_found := FOUND;
                    IF NOT user_found THEN
                        RETURN NEXT;
                        RETURN;
                    END IF;
                    SELECT t.uid INTO previous_uid FROM push_tokens t
                    WHERE t.app_id = p_app_id AND t.push_token = p_token FOR UPDATE;
                    INSERT INTO push_tokens AS t (
                        app_id, push_token, uid, session_id, provider_id, platform, token_kind, created_at, last_seen_at, encryption)
                    VALUES (p_app_id, p_token, p_uid, p_session_id, p_provider_id, p_platform, p_kind, p_created_at, p_last_seen_at, p_encryption)
                    ON CONFLICT (app_id, push_token) DO UPDATE SET
                        uid = excluded.uid, session_id = excluded.session_id, provider_id = excluded.provider_id,
                        platform = excluded.platform, token_kind = excluded.token_kind, last_seen_at = excluded.last_seen_at,
                        encryption = excluded.encryption
                    RETURNING t.created_at INTO stored_created_at;
                    IF p_unique THEN
                        WITH gone AS (
                            DELETE FROM push_tokens t
                            WHERE t.app_id = p_app_id AND t.uid = p_uid AND t.token_kind = p_kind AND t.push_token <> p_token
                            RETURNING t.push_token)
                        SELECT coalesce(array_agg(gone.push_token), '{}') INTO more FROM gone;
                        removed := removed || more;
                    END IF;
                    WITH gone AS (
                        DELETE FROM push_tokens t
                        WHERE t.app_id = p_app_id AND t.uid = p_uid AND t.push_token NOT IN (
                            SELECT k.push_token FROM push_tokens k WHERE k.app_id = p_app_id AND k.uid = p_uid
                            ORDER BY k.last_seen_at DESC, k.push_token DESC LIMIT p_max_per_user)
                        RETURNING t.push_token)
                    SELECT coalesce(array_agg(gone.push_token), '{}') INTO more FROM gone;
                    removed := removed || more;
                    RETURN NEXT;
                END
                $$
                """,
            ]
        ),
        // Notice windows per (user, conversation): clears coalesced after one went out, and
        // messages held for a burst summary after an alert; due ones are found by `closes_at`.
        Migration(
            version: 14,
            name: "notice windows",
            statements: [
                """
                CREATE TABLE notice_windows (
                    app_id TEXT NOT NULL, uid TEXT NOT NULL, conversation_id TEXT NOT NULL, kind TEXT NOT NULL,
                    closes_at BIGINT NOT NULL, held INTEGER NOT NULL, count INTEGER NOT NULL, last_event_id TEXT,
                    collapse_id TEXT, except_session TEXT, lease_until BIGINT, lease_owner TEXT,
                    PRIMARY KEY (app_id, uid, conversation_id, kind))
                """,
                "CREATE INDEX notice_windows_due ON notice_windows (closes_at)",
            ]
        ),
        // The message an event is about, so that an edit or a delete reaches only those who were
        // alerted to the message (through its events' deliveries).
        Migration(
            version: 15,
            name: "event message id",
            statements: [
                "ALTER TABLE events ADD COLUMN message_id TEXT",
                "CREATE INDEX events_by_message ON events (app_id, message_id) WHERE message_id IS NOT NULL",
            ]
        ),
        // What devices report of a push: when it arrived and when it was opened.
        Migration(
            version: 16,
            name: "delivery receipts",
            statements: [
                "ALTER TABLE deliveries ADD COLUMN received_at BIGINT",
                "ALTER TABLE deliveries ADD COLUMN opened_at BIGINT",
            ]
        ),
        // The Matrix push gateway: which Herald app and provider each Matrix app id (or glob)
        // goes to, and the pushkeys providers declared dead.
        Migration(
            version: 17,
            name: "matrix push gateway",
            statements: [
                """
                CREATE TABLE matrix_app_ids (
                    pattern TEXT PRIMARY KEY, app_id TEXT NOT NULL, provider_id TEXT NOT NULL, settings TEXT NOT NULL,
                    created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL)
                """,
                "CREATE INDEX matrix_app_ids_by_app ON matrix_app_ids (app_id)",
                """
                CREATE TABLE matrix_rejected_pushkeys (
                    matrix_app_id TEXT NOT NULL, pushkey TEXT NOT NULL, reason TEXT NOT NULL, rejected_at BIGINT NOT NULL,
                    PRIMARY KEY (matrix_app_id, pushkey))
                """,
            ]
        ),
        // Claims find open events without walking past the claimed ones: pending events by age,
        // claimed ones by when their lease ends (events_open held both, so a claim read every
        // event being fanned out before it reached a pending one).
        Migration(
            version: 18,
            name: "claim indexes by status",
            statements: [
                "CREATE INDEX events_pending ON events (received_at) WHERE status = 'pending'",
                "CREATE INDEX events_leased ON events (lease_until) WHERE status = 'fanning_out'",
                "DROP INDEX events_open",
            ]
        ),
        // PostgreSQL: no index of push_tokens leads with app_id. Each statement on tokens names
        // the app and one more key (the token, the user, the session, the provider), and each
        // index now leads with one of those, so each statement has one index to take. When
        // several indexes led with app_id, PostgreSQL chose among them by its estimate of the
        // app's tokens, which is one row where it knows nothing of the app yet (a new database,
        // whose first plans a connection keeps; a new app): they looked alike, and the one taken
        // could read every token of the app for each registration (measured with 8,000 tokens:
        // owner lookup 0.3–1 ms, cap 0.9 ms; 0.003 and 0.02 ms by the right index). The key's
        // columns are the same, so `ON CONFLICT (app_id, push_token)` still finds it. SQLite's
        // planner prefers the index that matches the most columns, and keeps its layout.
        Migration(
            version: 19,
            name: "token indexes led by their keys",
            statements: [],
            postgres: [
                "ALTER TABLE push_tokens DROP CONSTRAINT push_tokens_pkey",
                "ALTER TABLE push_tokens ADD CONSTRAINT push_tokens_pkey PRIMARY KEY (push_token, app_id)",
                "DROP INDEX push_tokens_by_user",
                "CREATE INDEX push_tokens_by_user ON push_tokens (uid, app_id, last_seen_at)",
                "DROP INDEX push_tokens_by_provider",
                "CREATE INDEX push_tokens_by_provider ON push_tokens (provider_id, app_id)",
            ]
        ),
        // SQLite: the delivery log by user is a table of its own, filled in sorted batches
        // (``DeliveryUserIndex``), not an index each push's row went into at a random place.
        Migration(
            version: 20,
            name: "deliveries by user in sorted batches",
            statements: [],
            sqlite: [
                """
                CREATE TABLE delivery_users (
                    app_id TEXT NOT NULL, uid TEXT NOT NULL, created_at BIGINT NOT NULL, delivery_id TEXT NOT NULL,
                    PRIMARY KEY (app_id, uid, created_at, delivery_id)) WITHOUT ROWID
                """,
                "INSERT INTO delivery_users SELECT app_id, uid, created_at, id FROM deliveries ORDER BY app_id, uid, created_at, id",
                "CREATE TABLE delivery_users_indexed (through BIGINT NOT NULL)",
                "INSERT INTO delivery_users_indexed SELECT COALESCE(MAX(rowid), 0) FROM deliveries",
                "DROP INDEX deliveries_by_user",
            ]
        ),
        // PostgreSQL: every text column that is part of an index compares bytes (COLLATE "C"), as
        // SQLite's do. Keys were compared by the database's collation, which is the locale it was
        // created in: in `en_US.UTF-8` (the official image's) each comparison in a key's B-tree
        // is a call to strcoll, and 1:1 pushes ran ~25 % slower than in a `C` database (measured:
        // 10,600–12,200 against 14,900/s); lists paged by a key (users by uid) also came in
        // another order than on SQLite. Ids and keys are identifiers, not prose: byte order is
        // the one wanted. Display text (names, bodies) keeps the database's collation. The
        // indexes of the columns changed are rebuilt; the tables are not rewritten. A later
        // migration that indexes a text column declares it `COLLATE "C"` on PostgreSQL
        // (KeyCollationTests holds it).
        Migration(
            version: 21,
            name: "keys compare bytes",
            statements: [],
            postgres: [
                """
                DO $$
                DECLARE t record;
                BEGIN
                    FOR t IN
                        SELECT c.oid::regclass AS name,
                               string_agg(DISTINCT format('ALTER COLUMN %I TYPE text COLLATE "C"', a.attname), ', ') AS changes
                        FROM pg_index x
                        JOIN pg_class c ON c.oid = x.indrelid
                        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY (x.indkey)
                        WHERE c.relnamespace = current_schema()::regnamespace AND a.atttypid = 'text'::regtype
                          AND a.attcollation <> 'pg_catalog."C"'::regcollation
                        GROUP BY c.oid
                    LOOP
                        EXECUTE format('ALTER TABLE %s %s', t.name, t.changes);
                    END LOOP;
                END
                $$
                """
            ]
        ),
    ]

    /// Every migration's version, in order.
    public static var migrationVersions: [Int] { migrations.map(\.version) }

    /// Applies the migrations not yet applied; safe to run from several processes at once
    /// (PostgreSQL: an advisory lock; SQLite: `BEGIN IMMEDIATE`). Returns the versions applied.
    /// - Parameter version: stop after this version (the migration-path tests build every earlier schema).
    @discardableResult
    public func migrate(through version: Int? = nil) async throws -> [Int] {
        let dialect = self.dialect
        return try await transaction { db in
            if dialect == .postgres {
                // Serialises concurrent starts; everything below runs under the lock.
                try await db.raw("SELECT pg_advisory_xact_lock(7262534)").perform()
            }
            try await db.raw(
                """
                CREATE TABLE IF NOT EXISTS herald_migrations (
                    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)
                """
            ).perform()
            let applied = Set(try await db.raw("SELECT version FROM herald_migrations").rows().map { try $0.int("version") })
            var done: [Int] = []
            for migration in Self.migrations where !applied.contains(migration.version) && migration.version <= (version ?? .max) {
                for statement in migration.statements + (dialect == .postgres ? migration.postgres : migration.sqlite) {
                    try await db.raw(SQLQueryString(statement)).perform()
                }
                try await db.raw(
                    """
                    INSERT INTO herald_migrations (version, name, applied_at)
                    VALUES (\(bind: migration.version), \(bind: migration.name), \(bind: Date().ms))
                    """
                ).perform()
                done.append(migration.version)
            }
            return done
        }
    }
}
