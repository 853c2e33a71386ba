import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The `Total` of GET /v3/consultas without counting rows: inquiries per
 * (agency, audience, UTC hour), kept by a trigger on `inquiries`, so every
 * write path (intake, cascades of a deleted app, a moved row) keeps it exact.
 * The trigger is deferred to commit: concurrent intakes of one agency hold
 * the hour's counter row for the commit only.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw(`
      create table inquiry_hour_counts (
        agency_id integer not null,
        audience_app_id integer not null,
        hour timestamptz not null,
        total integer not null,
        primary key (agency_id, audience_app_id, hour)
      )`)
    this.schema.raw(`
      create function inquiry_hour_counts_track() returns trigger language plpgsql as $$
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
    // Existing rows are counted under a lock that keeps new ones out meanwhile.
    this.schema.raw('lock table inquiries in share row exclusive mode')
    this.schema.raw(`
      create constraint trigger inquiry_hour_counts_track
        after insert or delete or update of agency_id, app_id, received_at on inquiries
        deferrable initially deferred
        for each row execute function inquiry_hour_counts_track()`)
    this.schema.raw(`
      insert into inquiry_hour_counts (agency_id, audience_app_id, hour, total)
      select agency_id, audience_app_id, date_trunc('hour', received_at, 'UTC'), count(*)
        from inquiries group by 1, 2, 3`)
  }

  async down() {
    this.schema.raw('drop trigger inquiry_hour_counts_track on inquiries')
    this.schema.raw('drop function inquiry_hour_counts_track()')
    this.schema.raw('drop table inquiry_hour_counts')
  }
}
