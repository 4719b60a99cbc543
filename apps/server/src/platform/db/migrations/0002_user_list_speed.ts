import { type Kysely, type Migration, sql } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
        -- A subtree's prefix match on comp_path is estimated from its histogram: with the default
        -- 100 buckets one company looks like 10, and the user list then walks app_user by id
        -- instead of taking the company's users from app_user_comp_idx.
        alter table company alter column comp_path set statistics 1000;
        analyze company;

        -- Users per company, kept by triggers in the same transaction as the change, so a list
        -- without filters counts its scope from a few rows instead of every user row.
        create table company_user_count (
          comp_id integer primary key references company (comp_id) on delete cascade,
          users integer not null
        );
        insert into company_user_count (comp_id, users) select comp_id, count(*) from app_user group by comp_id;

        create function app_user_count() returns trigger language plpgsql as $$
        begin
          if tg_op = 'TRUNCATE' then
            delete from company_user_count;
            return null;
          end if;
          if tg_op in ('UPDATE', 'DELETE') then
            update company_user_count set users = users - 1 where comp_id = old.comp_id;
          end if;
          if tg_op in ('UPDATE', 'INSERT') then
            insert into company_user_count (comp_id, users) values (new.comp_id, 1)
            on conflict (comp_id) do update set users = company_user_count.users + 1;
          end if;
          return null;
        end $$;
        create trigger app_user_count_rows after insert or delete on app_user
          for each row execute function app_user_count();
        create trigger app_user_count_moves after update of comp_id on app_user
          for each row when (old.comp_id is distinct from new.comp_id) execute function app_user_count();
        create trigger app_user_count_truncate after truncate on app_user
          for each statement execute function app_user_count();
      `.execute(db);
  },
};
