import { MAX_PAGE, paginationQuery } from '@gl/contracts';
import { ParamError } from '../errors';
import { buildOpenApiDocument } from '../openapi';
import { MAX_SKIP, readPageRequest } from './pagination';
import { parseParams } from './validate';

type Answer = { page: number; perPage: number } | { error: string };

/** What the services' reader answers. */
function reader(query: Record<string, unknown>): Answer {
  try {
    const { page, perPage } = readPageRequest(query);
    return { page, perPage };
  } catch (err) {
    if (err instanceof ParamError) return { error: err.messages.join(', ') };
    throw err;
  }
}

/** What the contracts' schema answers (the same window, read with the reader's defaults). */
function contract(query: Record<string, unknown>): Answer {
  try {
    const parsed = parseParams(paginationQuery, query);
    return { page: parsed.page ?? 1, perPage: parsed.per_page ?? 20 };
  } catch (err) {
    if (err instanceof ParamError) return { error: err.messages.join(', ') };
    throw err;
  }
}

const TWENTY_DIGITS = '99999999999999999999';

// GitLab's answers (lib/api/pagination_params.rb, Grape's coercion, Kaminari's page/per; see
// libs/contracts/src/pagination.ts).
const CASES: [Record<string, unknown>, Answer][] = [
  [{}, { page: 1, perPage: 20 }],
  [
    { page: '3', per_page: '10' },
    { page: 3, perPage: 10 },
  ],
  [{ page: '0' }, { page: 1, perPage: 20 }],
  [{ page: '-1' }, { page: 1, perPage: 20 }],
  [{ page: '' }, { page: 1, perPage: 20 }],
  [{ page: ' 2 ' }, { page: 2, perPage: 20 }],
  [{ page: '+2' }, { page: 2, perPage: 20 }],
  [{ page: '1_0' }, { page: 10, perPage: 20 }],
  [{ page: TWENTY_DIGITS }, { page: MAX_PAGE, perPage: 20 }],
  [{ page: 'abc' }, { error: 'page is invalid' }],
  [{ page: '1.5' }, { error: 'page is invalid' }],
  [{ page: '0x10' }, { error: 'page is invalid' }],
  [{ page: ' ' }, { error: 'page is invalid' }],
  [{ page: ['1', '2'] }, { error: 'page is invalid' }],
  [{ per_page: '0' }, { error: 'per_page has a value not allowed' }],
  [{ per_page: '-0' }, { error: 'per_page has a value not allowed' }],
  [{ per_page: 'abc' }, { error: 'per_page is invalid' }],
  [{ per_page: '-1' }, { page: 1, perPage: 20 }],
  [{ per_page: '' }, { page: 1, perPage: 20 }],
  [{ per_page: '500' }, { page: 1, perPage: 100 }],
  [{ per_page: TWENTY_DIGITS }, { page: 1, perPage: 100 }],
  [{ page: 'x', per_page: '0' }, { error: 'page is invalid, per_page has a value not allowed' }],
  [{ page: 'x', per_page: 'y' }, { error: 'page is invalid, per_page is invalid' }],
];

describe('offset pagination parameters', () => {
  it.each(CASES)('When the query is %j, then %j from the reader and the contract alike', (query, answer) => {
    expect(reader(query)).toEqual(answer);
    expect(contract(query)).toEqual(answer);
  });

  it('When the page is far past the end, then the skip stays one the database takes', () => {
    expect(readPageRequest({ page: TWENTY_DIGITS, per_page: '100' }).skip).toBe(MAX_SKIP);
    expect(readPageRequest({ page: '3', per_page: '10' }).skip).toBe(20);
  });

  it('When documented, then page and per_page are optional integers', () => {
    const doc = buildOpenApiDocument(
      [
        {
          service: 'boards',
          method: 'GET',
          path: '/items',
          operationId: 'listItems',
          summary: 'Items',
          tags: [],
          auth: 'token',
          params: paginationQuery,
          response: { status: 200, description: 'Items', paginated: true },
        },
      ] as never,
      { title: 't', version: '1' },
    ) as { paths: Record<string, { get: { parameters: { in: string }[] } }> };
    const query = doc.paths['/api/v4/items']!.get.parameters.filter((p) => p.in === 'query');
    expect(query).toMatchObject([
      { name: 'page', in: 'query', required: false, schema: { type: 'integer' } },
      { name: 'per_page', in: 'query', required: false, schema: { type: 'integer' } },
    ]);
  });
});
