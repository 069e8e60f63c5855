// Sections as a writable kind: POST /v1/sections with the organization's id,
// PATCH and DELETE /v1/sections/{section_id} (gaps.md).
import { sectionOperations } from '../../api/operations';
import type { SectionCreateBody } from '../../../protocol/section';
import type { FieldValues } from '../push-store';
import { bodyOf, type PushKind } from './push-kind';

export const sectionPushKind: PushKind = {
  entityType: 'section',
  writeScope: 'tasks:write',
  deleteName: 'sections.delete',
  needsOrgId: true,
  async create(api, op, orgId, options) {
    const body = { ...op.patch, org_id: orgId } as unknown as SectionCreateBody;
    const answer = await api.create(sectionOperations.create, {}, body, options);
    return { task: answer.body as FieldValues, etag: answer.etag };
  },
  async update(api, op, options) {
    const answer = await api.update(sectionOperations.update, { sectionId: op.entityId }, op.patch, options);
    return { task: answer.body as FieldValues, etag: answer.etag };
  },
  async remove(api, op, options) {
    await api.remove(sectionOperations.delete, { sectionId: op.entityId }, options);
  },
  async read(api, op, options) {
    const { body, etag } = bodyOf(
      'sections.get',
      await api.read(sectionOperations.get, { sectionId: op.entityId }, options),
    );
    return { task: body as FieldValues, etag };
  },
};
