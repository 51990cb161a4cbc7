import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PRODUCT_CSV_MAX_BYTES,
  productImportQuery,
  productImportReport,
  type ProductImportProgress,
} from '../../domains/catalog/product-csv.schemas';
import { exportProductsCsv, importProductsCsv } from '../../domains/catalog/product-csv.service';
import type { Permission } from '../../domains/staff/permissions';
import { AppError, BadRequestError, ForbiddenError } from '../../shared/errors';
import { formatSize } from '../../domains/uploads/uploads.service';
import { actingContext, signedInStaff } from '../admin-api';
import { answers, failures, ok } from '../envelope';
import { mapError } from '../error-handler';

const CSV_TYPES = new Set([
  'text/csv',
  'application/csv',
  'text/plain',
  'application/vnd.ms-excel',
  'application/octet-stream',
]);

/** Reads the one CSV file of the multipart body, refusing one over PRODUCT_CSV_MAX_BYTES with 413 (nothing read past it). */
async function readCsvFile(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw new BadRequestError('adminProductCsv.missing');
  let bytes: Buffer | null = null;
  try {
    for await (const part of request.files({ limits: { fileSize: PRODUCT_CSV_MAX_BYTES, files: 1 } })) {
      const named = /\.(csv|txt)$/i.test(part.filename);
      if (!named && !CSV_TYPES.has(part.mimetype)) {
        part.file.resume();
        throw new BadRequestError('adminProductCsv.notCsv');
      }
      bytes = await part.toBuffer();
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError('payloadTooLarge', 'adminProductCsv.tooLarge', { limit: formatSize(PRODUCT_CSV_MAX_BYTES) });
    if (code === 'FST_FILES_LIMIT') throw new BadRequestError('adminProductCsv.missing');
    throw error;
  }
  if (!bytes || bytes.length === 0) throw new BadRequestError('adminProductCsv.missing');
  return bytes;
}

/** Who may export: the product readers of admin-products.routes.ts. */
const READERS: readonly Permission[] = ['catalog:write', 'orders:read'];

/**
 * Products as CSV (docs/console.md, "Products as CSV"; ADR 0161): the export streams every
 * product; the import checks the whole file, writes nothing while any row has a problem, and
 * otherwise writes what differs from the shop a product at a time (a re-run finishes a stopped one).
 */
export const adminProductCsvRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, { limits: { files: 1, fields: 5, fieldSize: 1024, parts: 6 } });

  app.get(
    '/products/export.csv',
    {
      config: { staffAccess: 'signed-in' },
      preHandler: async (request) => {
        const staff = signedInStaff(request);
        if (staff.mustEnrolSecondFactor) throw new ForbiddenError('admin.error.secondFactorRequired');
        if (!READERS.some((permission) => staff.permissions.has(permission)))
          throw new ForbiddenError('admin.error.permission');
      },
      schema: {
        tags: ['admin'],
        summary: 'Every product as CSV (UTF-8 with BOM; docs/console.md, "Products as CSV")',
        response: {
          200: z.unknown().describe('text/csv; charset=utf-8, streamed; sent as an attachment'),
          ...failures('login', 'forbidden'),
        },
      },
    },
    async (request, reply) => {
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="products-${day}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(exportProductsCsv(request.ctx)));
    },
  );

  app.post(
    '/products/import',
    {
      config: { permission: 'catalog:write' },
      schema: {
        tags: ['admin'],
        summary: 'Import products from CSV (multipart): dry_run=true checks every row and writes nothing',
        consumes: ['multipart/form-data'],
        querystring: productImportQuery,
        response: answers(productImportReport, 'write', 'login', 'forbidden'),
      },
    },
    async (request, reply) => {
      const bytes = await readCsvFile(request);
      const input = { bytes, dryRun: request.query.dry_run === 'true', locale: request.ctx.locale };
      const ctx = actingContext(request);
      if (request.query.progress !== 'ndjson') return ok(await importProductsCsv(ctx, input));
      return streamProgress(request, reply, (onProgress) => importProductsCsv(ctx, input, onProgress));
    },
  );
};

/**
 * The console's progress bar: newline-delimited JSON, `{"progress":{...}}` lines while images
 * are fetched, rows checked and rows written (ProductImportProgress), then the envelope the
 * plain request would answer.
 */
function streamProgress(
  request: FastifyRequest,
  reply: FastifyReply,
  work: (onProgress: (progress: ProductImportProgress) => void) => Promise<unknown>,
) {
  const stream = new Readable({ read() {} });
  const line = (value: unknown) => stream.push(`${JSON.stringify(value)}\n`);
  work((progress) => line({ progress }))
    .then((data) => line(ok(data)))
    .catch((error: Error) => {
      const mapped = mapError(error, request, PRODUCT_CSV_MAX_BYTES);
      if (mapped.status >= 500) request.log.error({ err: error }, 'product import failed');
      line({ code: mapped.code, msg: mapped.msg, data: null });
    })
    .finally(() => stream.push(null));
  return reply.type('application/x-ndjson; charset=utf-8').header('cache-control', 'no-store').send(stream);
}
