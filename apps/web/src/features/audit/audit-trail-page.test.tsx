import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { AUDIT_ENTITIES } from '@broker/contract';
import { endpoints } from '../../shared/api/contract';
import { queryClient } from '../../shared/api/query-client';
import { i18n } from '../../shared/i18n/i18n';
import { request } from '../../shared/api/request';
import { renderPage } from '../../testing/render-page';
import AuditTrailPage from './audit-trail-page';

vi.mock('../../shared/api/request', () => ({ request: vi.fn() }));
const requestMock = vi.mocked(request);

beforeEach(async () => {
  await i18n.changeLanguage('zh-CN');
  queryClient.clear();
  requestMock.mockResolvedValue({ list: [], nextCursor: null });
});
afterEach(() => requestMock.mockReset());

test('the trail has a filter for every kind it records, and each asks the server for that kind', async () => {
  renderPage(<AuditTrailPage />);
  await waitFor(() => expect(requestMock).toHaveBeenCalledWith(endpoints.getMyAuditTrail, { limit: 20 }));
  const chips = screen.getAllByRole('button', { pressed: false }).filter((chip) => chip.classList.contains('ba-audit__filter'));
  expect(chips).toHaveLength(AUDIT_ENTITIES.length);
  fireEvent.click(screen.getByRole('button', { name: '联系记录' }));
  await waitFor(() => expect(requestMock).toHaveBeenCalledWith(endpoints.getMyAuditTrail, { limit: 20, entity: 'contact_record' }));
});
