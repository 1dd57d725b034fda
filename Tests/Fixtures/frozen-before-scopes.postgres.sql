--
-- PostgreSQL database dump
--

\restrict odfQEeDAbIz9zA8sTDSW3cvCBzJQFP1HDo2zSjrj3OkaaO7TdUnfI8irJ2vdmTd

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: accounts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.accounts (
    local_id text NOT NULL COLLATE pg_catalog."C",
    email text COLLATE pg_catalog."C",
    email_verified boolean NOT NULL,
    display_name text,
    photo_url text,
    phone_number text COLLATE pg_catalog."C",
    password_hash text,
    disabled boolean NOT NULL,
    custom_attributes text,
    created_at_millis bigint NOT NULL,
    last_login_at_millis bigint,
    last_refresh_at_millis bigint,
    valid_since_millis bigint NOT NULL,
    is_anonymous boolean NOT NULL,
    password_updated_at_millis bigint,
    initial_email text,
    email_link_sign_in boolean NOT NULL
);


--
-- Name: audit_events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.audit_events (
    id text NOT NULL COLLATE pg_catalog."C",
    at_millis bigint NOT NULL,
    kind text NOT NULL COLLATE pg_catalog."C",
    local_id text COLLATE pg_catalog."C",
    provider text,
    client_address text,
    actor text NOT NULL,
    detail text NOT NULL
);


--
-- Name: dev_accounts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.dev_accounts (
    subject text NOT NULL COLLATE pg_catalog."C",
    email text NOT NULL COLLATE pg_catalog."C",
    email_verified boolean NOT NULL,
    name text,
    given_name text,
    family_name text,
    picture_url text,
    hosted_domain text,
    locale text,
    created_at_millis bigint NOT NULL,
    seq bigint NOT NULL
);


--
-- Name: dev_accounts_seq_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.dev_accounts ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.dev_accounts_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: dev_grants; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.dev_grants (
    token_hash text NOT NULL COLLATE pg_catalog."C",
    kind text NOT NULL,
    subject text NOT NULL COLLATE pg_catalog."C",
    client_id text NOT NULL COLLATE pg_catalog."C",
    scope text NOT NULL,
    redirect_uri text,
    code_challenge text,
    nonce text,
    audience text,
    expires_at bigint NOT NULL,
    created_at bigint NOT NULL,
    CONSTRAINT dev_grants_kind_check CHECK ((kind = ANY (ARRAY['code'::text, 'access'::text, 'refresh'::text])))
);


--
-- Name: hearth_schema; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.hearth_schema (
    version integer NOT NULL,
    name text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: identities; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.identities (
    local_id text NOT NULL COLLATE pg_catalog."C",
    "position" integer NOT NULL,
    provider_id text NOT NULL COLLATE pg_catalog."C",
    raw_id text NOT NULL COLLATE pg_catalog."C",
    email text,
    display_name text,
    photo_url text,
    screen_name text,
    provider_refresh_token bytea,
    provider_client_id text
);


--
-- Name: limit_counters; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.limit_counters (
    key text NOT NULL COLLATE pg_catalog."C",
    window_start_millis bigint NOT NULL,
    count bigint NOT NULL,
    streak bigint NOT NULL,
    lockouts bigint NOT NULL,
    locked_until_millis bigint NOT NULL,
    expires_at_millis bigint NOT NULL
);


--
-- Name: mfa_enrollments; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.mfa_enrollments (
    local_id text NOT NULL COLLATE pg_catalog."C",
    "position" integer NOT NULL,
    enrollment_id text NOT NULL COLLATE pg_catalog."C",
    kind text NOT NULL,
    display_name text,
    enrolled_at_millis bigint NOT NULL,
    phone_number text,
    totp_secret bytea,
    last_used_totp_step bigint,
    CONSTRAINT mfa_enrollments_kind_check CHECK ((kind = ANY (ARRAY['phone'::text, 'totp'::text])))
);


--
-- Name: mfa_pending_sign_ins; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.mfa_pending_sign_ins (
    credential_hash text NOT NULL COLLATE pg_catalog."C",
    local_id text NOT NULL COLLATE pg_catalog."C",
    sign_in_provider text NOT NULL,
    expires_at bigint NOT NULL,
    failed_attempts integer NOT NULL,
    created_at_millis bigint NOT NULL
);


--
-- Name: oob_codes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.oob_codes (
    code_hash text NOT NULL COLLATE pg_catalog."C",
    kind text NOT NULL,
    local_id text,
    email text NOT NULL,
    new_email text,
    continue_url text,
    created_at_millis bigint NOT NULL,
    expires_at_millis bigint NOT NULL
);


--
-- Name: provider_token_revocations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.provider_token_revocations (
    revocation_id text NOT NULL COLLATE pg_catalog."C",
    provider_id text NOT NULL,
    client_id text NOT NULL,
    token bytea NOT NULL,
    token_type_hint text NOT NULL,
    local_id text NOT NULL,
    created_at_millis bigint NOT NULL,
    attempts integer NOT NULL,
    next_attempt_at_millis bigint NOT NULL,
    last_error text
);


--
-- Name: refresh_sessions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.refresh_sessions (
    session_id text NOT NULL COLLATE pg_catalog."C",
    local_id text NOT NULL COLLATE pg_catalog."C",
    sign_in_provider text NOT NULL,
    auth_time bigint NOT NULL,
    second_factor text,
    second_factor_identifier text,
    session_claims text,
    started_at_millis bigint NOT NULL,
    revoked_at_millis bigint,
    current_token_hash text NOT NULL,
    replaced_token_hash text,
    replaced_at_millis bigint,
    sealed_successor bytea
);


--
-- Name: service_accounts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.service_accounts (
    key_id text NOT NULL COLLATE pg_catalog."C",
    email text NOT NULL COLLATE pg_catalog."C",
    client_id text NOT NULL,
    public_key_pem text NOT NULL,
    created_at bigint NOT NULL,
    revoked_at bigint,
    seq bigint NOT NULL
);


--
-- Name: service_accounts_seq_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.service_accounts ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.service_accounts_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: signing_keys; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.signing_keys (
    key_id text NOT NULL COLLATE pg_catalog."C",
    algorithm text NOT NULL,
    private_key_pem text NOT NULL,
    created_at bigint NOT NULL,
    retired_at bigint,
    seq bigint NOT NULL
);


--
-- Name: signing_keys_seq_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.signing_keys ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.signing_keys_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: verification_sessions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.verification_sessions (
    session_hash text NOT NULL COLLATE pg_catalog."C",
    purpose text NOT NULL,
    local_id text NOT NULL COLLATE pg_catalog."C",
    phone_number text COLLATE pg_catalog."C",
    code_hash text,
    totp_secret bytea,
    pending_credential_hash text,
    enrollment_id text,
    failed_attempts integer NOT NULL,
    expires_at bigint NOT NULL,
    created_at_millis bigint NOT NULL,
    verified_at_millis bigint,
    CONSTRAINT verification_sessions_purpose_check CHECK ((purpose = ANY (ARRAY['phone-enrollment'::text, 'phone-sign-in'::text, 'totp-enrollment'::text])))
);


--
-- Data for Name: accounts; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.accounts VALUES ('frozen-alice', 'alice@frozen.example', true, 'Alice', NULL, NULL, '$argon2id$v=19$m=19456,t=2,p=1$J4YrKrPYU4RHKCZ7d/xUDg$QHv5o/FM4YGoHkj4apZoFIzLAJ7FqRbCaSOuaZZYCVw', false, NULL, 1764000000000, 1764000000000, NULL, 1764000000000, false, 1764000000000, NULL, false);
INSERT INTO public.accounts VALUES ('frozen-bob', 'bob@frozen.example', true, 'Bob', NULL, NULL, NULL, false, NULL, 1764000000001, NULL, NULL, 1764000000001, false, NULL, NULL, false);
INSERT INTO public.accounts VALUES ('frozen-carol', 'carol@frozen.example', true, NULL, NULL, NULL, '$argon2id$v=19$m=19456,t=2,p=1$Ux8oCQvJaLdsQm0fj4BD6Q$JGxO1CKsoMyImYsQiXC2LH21BZ4dXTGmvGhpTMku37Q', false, NULL, 1764000000002, NULL, NULL, 1764000000002, false, 1764000000002, NULL, false);


--
-- Data for Name: audit_events; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.audit_events VALUES ('1764000000030-ZlrIAm7vFx0x', 1764000000030, 'sign_up', 'frozen-alice', 'password', '192.0.2.1', 'user', '');
INSERT INTO public.audit_events VALUES ('1764000000031-r98F85RCuLaf', 1764000000031, 'sign_in', 'frozen-bob', 'password', '192.0.2.1', 'user', '');
INSERT INTO public.audit_events VALUES ('1764000000032-X8bGhOskYhBh', 1764000000032, 'factor_enrolled', 'frozen-carol', 'password', '192.0.2.1', 'user', '');


--
-- Data for Name: dev_accounts; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: dev_grants; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: hearth_schema; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.hearth_schema VALUES (1, 'the schema of SQLite migration 9, without legacy refresh tokens', '2026-12-02 19:22:59.037664+00');
INSERT INTO public.hearth_schema VALUES (2, 'the audit log (SQLite migration 10)', '2026-12-02 19:22:59.037664+00');
INSERT INTO public.hearth_schema VALUES (3, 'an index for voiding an account''s email action codes (SQLite migration 11)', '2026-12-02 19:22:59.037664+00');


--
-- Data for Name: identities; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.identities VALUES ('frozen-alice', 0, 'password', 'alice@frozen.example', 'alice@frozen.example', NULL, NULL, NULL, NULL, NULL);
INSERT INTO public.identities VALUES ('frozen-bob', 0, 'google.com', 'google-sub-bob', 'bob@frozen.example', 'Bob G', 'https://example.com/bob.png', NULL, NULL, NULL);
INSERT INTO public.identities VALUES ('frozen-carol', 0, 'password', 'carol@frozen.example', 'carol@frozen.example', NULL, NULL, NULL, NULL, NULL);


--
-- Data for Name: limit_counters; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.limit_counters VALUES ('frozen-limit', 1764000000000, 2, 1, 0, 0, 4102444800000);


--
-- Data for Name: mfa_enrollments; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.mfa_enrollments VALUES ('frozen-carol', 0, 'frozen-totp-carol', 'totp', 'Carol''s phone', 1764000000003, NULL, '\x3132333435363738393031323334353637383930', 58800000);


--
-- Data for Name: mfa_pending_sign_ins; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: oob_codes; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.oob_codes VALUES ('1073849044a995e1e5ab5237945a4984726492ed9d1763da3c3d3312c08ad713', 'VERIFY_EMAIL', 'frozen-alice', 'alice@frozen.example', NULL, NULL, 1764000000020, 4102444800000);


--
-- Data for Name: provider_token_revocations; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: refresh_sessions; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.refresh_sessions VALUES ('frozenSessionAlice', 'frozen-alice', 'password', 1764000000, NULL, NULL, NULL, 1764000000010, NULL, 'e05c765df5b46535fbc6aca070e7c973bdbe85b2a1eed08a551bb299ec107a3e', NULL, NULL, NULL);
INSERT INTO public.refresh_sessions VALUES ('frozenSessionBob', 'frozen-bob', 'google.com', 1764000000, NULL, NULL, NULL, 1764000000011, NULL, '5d8e0b2cf444b261ad9c251621afd842799676a2866cee9a9a27237ca0294241', NULL, NULL, NULL);


--
-- Data for Name: service_accounts; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: signing_keys; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: verification_sessions; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Name: dev_accounts_seq_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.dev_accounts_seq_seq', 1, false);


--
-- Name: service_accounts_seq_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.service_accounts_seq_seq', 1, false);


--
-- Name: signing_keys_seq_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.signing_keys_seq_seq', 1, false);


--
-- Name: accounts accounts_email_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.accounts
    ADD CONSTRAINT accounts_email_key UNIQUE (email);


--
-- Name: accounts accounts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.accounts
    ADD CONSTRAINT accounts_pkey PRIMARY KEY (local_id);


--
-- Name: audit_events audit_events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audit_events
    ADD CONSTRAINT audit_events_pkey PRIMARY KEY (id);


--
-- Name: dev_accounts dev_accounts_email_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.dev_accounts
    ADD CONSTRAINT dev_accounts_email_key UNIQUE (email);


--
-- Name: dev_accounts dev_accounts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.dev_accounts
    ADD CONSTRAINT dev_accounts_pkey PRIMARY KEY (subject);


--
-- Name: dev_grants dev_grants_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.dev_grants
    ADD CONSTRAINT dev_grants_pkey PRIMARY KEY (token_hash);


--
-- Name: hearth_schema hearth_schema_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.hearth_schema
    ADD CONSTRAINT hearth_schema_pkey PRIMARY KEY (version);


--
-- Name: identities identities_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.identities
    ADD CONSTRAINT identities_pkey PRIMARY KEY (local_id, "position");


--
-- Name: identities identities_provider_raw_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.identities
    ADD CONSTRAINT identities_provider_raw_id_key UNIQUE (provider_id, raw_id);


--
-- Name: limit_counters limit_counters_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.limit_counters
    ADD CONSTRAINT limit_counters_pkey PRIMARY KEY (key);


--
-- Name: mfa_enrollments mfa_enrollments_enrollment_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.mfa_enrollments
    ADD CONSTRAINT mfa_enrollments_enrollment_id_key UNIQUE (enrollment_id);


--
-- Name: mfa_enrollments mfa_enrollments_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.mfa_enrollments
    ADD CONSTRAINT mfa_enrollments_pkey PRIMARY KEY (local_id, "position");


--
-- Name: mfa_pending_sign_ins mfa_pending_sign_ins_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.mfa_pending_sign_ins
    ADD CONSTRAINT mfa_pending_sign_ins_pkey PRIMARY KEY (credential_hash);


--
-- Name: oob_codes oob_codes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.oob_codes
    ADD CONSTRAINT oob_codes_pkey PRIMARY KEY (code_hash);


--
-- Name: provider_token_revocations provider_token_revocations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.provider_token_revocations
    ADD CONSTRAINT provider_token_revocations_pkey PRIMARY KEY (revocation_id);


--
-- Name: refresh_sessions refresh_sessions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.refresh_sessions
    ADD CONSTRAINT refresh_sessions_pkey PRIMARY KEY (session_id);


--
-- Name: service_accounts service_accounts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.service_accounts
    ADD CONSTRAINT service_accounts_pkey PRIMARY KEY (key_id);


--
-- Name: signing_keys signing_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.signing_keys
    ADD CONSTRAINT signing_keys_pkey PRIMARY KEY (key_id);


--
-- Name: verification_sessions verification_sessions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.verification_sessions
    ADD CONSTRAINT verification_sessions_pkey PRIMARY KEY (session_hash);


--
-- Name: accounts_anonymous; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX accounts_anonymous ON public.accounts USING btree (local_id, created_at_millis) WHERE is_anonymous;


--
-- Name: accounts_phone_number; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX accounts_phone_number ON public.accounts USING btree (phone_number, local_id) WHERE (phone_number IS NOT NULL);


--
-- Name: audit_events_kind; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX audit_events_kind ON public.audit_events USING btree (kind, id);


--
-- Name: audit_events_local_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX audit_events_local_id ON public.audit_events USING btree (local_id, id) WHERE (local_id IS NOT NULL);


--
-- Name: dev_grants_expires_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX dev_grants_expires_at ON public.dev_grants USING btree (expires_at);


--
-- Name: dev_grants_subject_client; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX dev_grants_subject_client ON public.dev_grants USING btree (subject, client_id);


--
-- Name: limit_counters_expires_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX limit_counters_expires_at ON public.limit_counters USING btree (expires_at_millis);


--
-- Name: mfa_pending_sign_ins_expires_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX mfa_pending_sign_ins_expires_at ON public.mfa_pending_sign_ins USING btree (expires_at);


--
-- Name: mfa_pending_sign_ins_local_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX mfa_pending_sign_ins_local_id ON public.mfa_pending_sign_ins USING btree (local_id);


--
-- Name: oob_codes_expires_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX oob_codes_expires_at ON public.oob_codes USING btree (expires_at_millis);


--
-- Name: oob_codes_local_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX oob_codes_local_id ON public.oob_codes USING btree (local_id) WHERE (local_id IS NOT NULL);


--
-- Name: provider_token_revocations_due; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX provider_token_revocations_due ON public.provider_token_revocations USING btree (next_attempt_at_millis, revocation_id);


--
-- Name: refresh_sessions_account; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX refresh_sessions_account ON public.refresh_sessions USING btree (local_id, started_at_millis, session_id) WHERE (revoked_at_millis IS NULL);


--
-- Name: service_accounts_live_email; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX service_accounts_live_email ON public.service_accounts USING btree (email) WHERE (revoked_at IS NULL);


--
-- Name: verification_sessions_expires_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX verification_sessions_expires_at ON public.verification_sessions USING btree (expires_at);


--
-- Name: verification_sessions_phone_created; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX verification_sessions_phone_created ON public.verification_sessions USING btree (phone_number, created_at_millis);


--
-- Name: identities identities_local_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.identities
    ADD CONSTRAINT identities_local_id_fkey FOREIGN KEY (local_id) REFERENCES public.accounts(local_id) ON DELETE CASCADE;


--
-- Name: mfa_enrollments mfa_enrollments_local_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.mfa_enrollments
    ADD CONSTRAINT mfa_enrollments_local_id_fkey FOREIGN KEY (local_id) REFERENCES public.accounts(local_id) ON DELETE CASCADE;


--
-- Name: mfa_pending_sign_ins mfa_pending_sign_ins_local_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.mfa_pending_sign_ins
    ADD CONSTRAINT mfa_pending_sign_ins_local_id_fkey FOREIGN KEY (local_id) REFERENCES public.accounts(local_id) ON DELETE CASCADE;


--
-- PostgreSQL database dump complete
--

\unrestrict odfQEeDAbIz9zA8sTDSW3cvCBzJQFP1HDo2zSjrj3OkaaO7TdUnfI8irJ2vdmTd

