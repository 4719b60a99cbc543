import { type Kysely, type Migration, sql } from 'kysely';

/**
 * App users' push tokens (issue 8): the phone an app user signs in on names its token and the
 * provider that issued it (`user_login.push_provider` / `push_token`); an alarm for the user goes
 * to the token of the app push platform's provider. The newest token per user and provider is kept.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      create table umh_push_token (
        app_id integer not null,
        user_key text not null,
        provider text not null,
        token text not null,
        gmt_update bigint not null,
        primary key (app_id, user_key, provider)
      );
    `.execute(db);
  },
};
