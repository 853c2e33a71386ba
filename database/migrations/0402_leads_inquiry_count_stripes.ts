import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The hourly counters in stripes: one row per (agency, audience, hour) was a
 * hot row — every intake of an agency updated it at commit and held it through
 * the commit's WAL flush, so the agency's intakes committed one at a time
 * (intake → webhook p50 of hundreds of ms at 50 inquiries/s). Each connection
 * now counts into its own stripe (backend pid mod 16), with +1 or −1, so
 * concurrent intakes rarely meet; the Total sums the stripes and stays exact.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw('alter table inquiry_hour_counts add column stripe smallint not null default 0')
    this.schema.raw('alter table inquiry_hour_counts drop constraint inquiry_hour_counts_pkey')
    this.schema.raw(
      'alter table inquiry_hour_counts add primary key (agency_id, audience_app_id, hour, stripe)'
    )
    this.schema.raw(`
      create or replace function inquiry_hour_counts_track() returns trigger language plpgsql as $$
      declare
        own smallint := pg_backend_pid() % 16;
      begin
        if tg_op in ('UPDATE', 'DELETE') then
          insert into inquiry_hour_counts as c (agency_id, audience_app_id, hour, stripe, total)
          values (old.agency_id, old.audience_app_id, date_trunc('hour', old.received_at, 'UTC'), own, -1)
          on conflict (agency_id, audience_app_id, hour, stripe) do update set total = c.total - 1;
        end if;
        if tg_op in ('INSERT', 'UPDATE') then
          insert into inquiry_hour_counts as c (agency_id, audience_app_id, hour, stripe, total)
          values (new.agency_id, new.audience_app_id, date_trunc('hour', new.received_at, 'UTC'), own, 1)
          on conflict (agency_id, audience_app_id, hour, stripe) do update set total = c.total + 1;
        end if;
        return null;
      end $$`)
  }

  async down() {
    this.schema.raw(`
      create or replace function inquiry_hour_counts_track() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') then
          update inquiry_hour_counts set total = total - 1
           where agency_id = old.agency_id and audience_app_id = old.audience_app_id
             and hour = date_trunc('hour', old.received_at, 'UTC');
        end if;
        if tg_op in ('INSERT', 'UPDATE') then
          insert into inquiry_hour_counts as c (agency_id, audience_app_id, hour, total)
          values (new.agency_id, new.audience_app_id, date_trunc('hour', new.received_at, 'UTC'), 1)
          on conflict (agency_id, audience_app_id, hour) do update set total = c.total + 1;
        end if;
        return null;
      end $$`)
    this.schema.raw('lock table inquiry_hour_counts in exclusive mode')
    this.schema.raw(`
      create temporary table folded as
        select agency_id, audience_app_id, hour, sum(total)::integer as total
          from inquiry_hour_counts group by 1, 2, 3`)
    this.schema.raw('delete from inquiry_hour_counts')
    this.schema.raw('alter table inquiry_hour_counts drop constraint inquiry_hour_counts_pkey')
    this.schema.raw('alter table inquiry_hour_counts drop column stripe')
    this.schema.raw(
      'alter table inquiry_hour_counts add primary key (agency_id, audience_app_id, hour)'
    )
    this.schema.raw(
      'insert into inquiry_hour_counts (agency_id, audience_app_id, hour, total) select * from folded'
    )
    this.schema.raw('drop table folded')
  }
}
