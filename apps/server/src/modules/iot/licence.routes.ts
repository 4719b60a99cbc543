import { API, DOWNLOADS, ErrorCode, exportLabelsOf, type Language, LICENCE_EXPORT_MAX, type LicenceRow } from '@iot/contract';
import { writeAudit } from '../../platform/audit.js';
import type { RequestContext } from '../../platform/context.js';
import { issueTicket } from '../../platform/download-ticket.js';
import { type Download, download } from '../../platform/downloads.js';
import { AppError, badParams, notFound } from '../../platform/errors.js';
import { nowSeconds, utcTime } from '../../platform/time.js';
import { type AuditEntity, type Route, route } from '../../platform/transport.js';
import { workbookOf } from '../../platform/workbook.js';
import { visibleProductPks } from './device.repository.js';
import {
  type BindResult,
  bindLicence,
  countLicences,
  exportLicences,
  getBatches,
  getLicences,
  insertBatch,
  listLicences,
  lockLicences,
  revokeLicences,
} from './licence.repository.js';

/** `liccode/add` is audited as ONE row: target = the batch id, changes = pk, comp_id, count, gmt_create. */
export const licenceBatchEntity: AuditEntity = { idField: 'batch_id', load: (conn, ids) => getBatches(conn, ids) };
/** `liccode/set` is audited per code: state unused → revoked, gmt_revoke. */
export const licenceEntity: AuditEntity = { idField: 'id', load: (conn, ids) => getLicences(conn, ids) };

/** Console answers for a refused bind (docs/api.md "Licence codes"). */
const refusal = (result: Exclude<BindResult, 'bound'>): AppError => {
  switch (result) {
    case 'not_found':
      return new AppError(ErrorCode.BAD_PARAMS, 'licence code does not exist', { fields: { code: 'not_found' } });
    case 'no_device':
      return new AppError(ErrorCode.BAD_PARAMS, 'device does not exist', { fields: { uid: 'not_found' } });
    case 'used':
      return new AppError(ErrorCode.CONFLICT, 'The licence code is already used', { fields: { code: 'used' } });
    case 'revoked':
      return new AppError(ErrorCode.BAD_PARAMS, 'The licence code is revoked', { fields: { code: 'revoked' } });
    case 'wrong_product':
      return new AppError(ErrorCode.BAD_PARAMS, "The device is not of the code's product", { fields: { uid: 'wrong_product' } });
    case 'wrong_company':
      return new AppError(ErrorCode.BAD_PARAMS, "The device's company is outside the code owner's tree", {
        fields: { uid: 'wrong_company' },
      });
  }
};

/** `liccode/use`: bind in one transaction with its audit row (target = the code's id). */
const useCode = (ctx: RequestContext, input: { code: string; uid: string }) =>
  ctx.services.db.transaction().execute(async (trx) => {
    const now = nowSeconds();
    const out = await bindLicence(trx, ctx.scope, { code: input.code, uid: input.uid, now, sameDeviceIsBound: false });
    if (out.result !== 'bound' || out.id === undefined) throw refusal(out.result === 'bound' ? 'used' : out.result);
    const [row] = await getLicences(trx, [out.id]);
    if (!row) throw notFound('licence code');
    await writeAudit(trx, ctx, [
      {
        path: API.licCodeUse.path,
        action: 'set',
        target_id: String(row.id),
        comp_id: row.comp_id,
        changes: {
          state: { before: 'unused', after: 'used' },
          uid: { before: null, after: row.uid },
          gmt_use: { before: null, after: row.gmt_use },
        },
      },
    ]);
    return row;
  });

export const licenceRoutes: Route[] = [
  route(API.licCodeList, async (ctx, input) => listLicences(ctx.conn, ctx.scope, input)),

  route(
    API.licCodeAdd,
    async (ctx, input) => {
      // comp_id is a declared company reference (checked by the transport).
      const pks = await visibleProductPks(ctx.conn, ctx.scope, [input.pk]);
      if (!pks.has(input.pk)) throw badParams({ pk: 'not_found' }, 'product does not exist');
      return insertBatch(ctx.conn, {
        pk: input.pk,
        compId: input.comp_id,
        count: input.count,
        userId: ctx.session?.userId ?? '',
        now: nowSeconds(),
      });
    },
    licenceBatchEntity,
  ),

  route(
    API.licCodeSet,
    async (ctx, input) => {
      const ids = [...new Set(input.ids)];
      const rows = await lockLicences(ctx.conn, ctx.scope, ids);
      if (rows.length !== ids.length) throw badParams({ ids: 'not_found' }, 'licence code does not exist');
      const used = rows.filter((r) => r.state === 'used').map((r) => Number(r.id));
      if (used.length > 0) {
        throw new AppError(ErrorCode.CONFLICT, 'A used licence code cannot be revoked', { fields: { ids: 'used' }, ids: used });
      }
      return { revoked: await revokeLicences(ctx.conn, ids, nowSeconds()) };
    },
    licenceEntity,
  ),

  route(API.licCodeUse, async (ctx, input) => useCode(ctx, input)),

  route(API.licCodeExport, async (ctx, input) => {
    const count = await countLicences(ctx.conn, ctx.scope, input);
    if (count > LICENCE_EXPORT_MAX)
      throw badParams({ filters: 'too_many' }, `More than ${LICENCE_EXPORT_MAX} codes match: narrow the filters`);
    return {
      count,
      download_path: DOWNLOADS.licenceXlsx.path,
      // The link answers these filters (the query cannot change them) in the caller's scope.
      download_ticket: issueTicket(ctx.services, DOWNLOADS.licenceXlsx, { scope: ctx.scope, input }),
    };
  }),
];

const COLUMNS = ['code', 'state', 'uid', 'pk', 'comp_name', 'batch_id', 'gmt_create', 'gmt_use'] as const;

export const buildLicenceWorkbook = async (rows: LicenceRow[], lang: Language): Promise<Buffer> => {
  const l = exportLabelsOf(lang).licences;
  return workbookOf([
    {
      name: l.sheet,
      header: COLUMNS.map((c) => l.columns[c]),
      widths: COLUMNS.map((_, i) => (i === 0 ? 22 : 18)),
      rows: rows.map((r) => [
        r.code,
        l.states[r.state],
        r.uid ?? '',
        r.pk,
        r.comp_name ?? '',
        r.batch_id ?? '',
        utcTime(r.gmt_create),
        utcTime(r.gmt_use),
      ]),
    },
  ]);
};

/**
 * `GET /api/v2/umh/admin/liccode/export.xlsx?ticket=…&lang=…` (the ticket carries the caller's
 * scope and filters; or `Authorization` with the filters in the query): platform/downloads.ts.
 */
export const licenceDownloads: Download[] = [
  download(DOWNLOADS.licenceXlsx, async (ctx, filters) => {
    const rows = await exportLicences(ctx.conn, ctx.scope, filters, LICENCE_EXPORT_MAX);
    const name = filters.batch_id ? `licence-codes-batch-${filters.batch_id}.xlsx` : 'licence-codes.xlsx';
    return { body: await buildLicenceWorkbook(rows, ctx.lang), name };
  }),
];
