// The envelope every list answers: `{data, next_cursor}`, some lists with
// `total`. Generic over the item schema; a page fails as a whole if one item
// does, so a half-understood page is never written to the mirror.
import { z } from 'zod';

export function listPageSchema<Item extends z.ZodType>(itemSchema: Item) {
  return z.looseObject({
    data: z.array(itemSchema),
    /**
     * Opaque; null on the last page. A page may be short or empty while it is not null.
     * Required although it may be null: read as the last page, an absent cursor would
     * end a pass early, and the pass's sweep would delete every item it did not reach.
     */
    next_cursor: z.string().nullable(),
    total: z.number().int().nullish(),
  });
}

export interface ListPage<Item> {
  data: Item[];
  next_cursor: string | null;
  total?: number | null | undefined;
  [field: string]: unknown;
}
