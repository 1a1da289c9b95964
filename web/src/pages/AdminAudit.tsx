import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { Empty, ErrorBox, Loading, fmtDate, useTitle } from '../ui';

const PAGE = 50;

export default function AdminAudit() {
  useTitle('Audit log (admin)');

  const [offset, setOffset] = useState(0);
  const log = useQuery({ queryKey: ['audit', offset], queryFn: () => unwrap(api.GET('/api/tools/admin/audit-log', { params: { query: { limit: PAGE, offset } } })) });
  return (
    <>
      <h1>Audit log</h1>
      {log.isPending ? <Loading /> : log.error ? <ErrorBox error={log.error} /> : log.data.entries.length === 0 ? <Empty>No administrator actions yet.</Empty> : (
        <>
          <table className="responsive">
            <thead><tr><th scope="col">When</th><th scope="col">Administrator</th><th scope="col">Action</th><th scope="col">Target</th></tr></thead>
            <tbody>{log.data.entries.map((e) => (
              <tr key={e.id}><td>{fmtDate(e.created_at)}</td><td>{e.admin_email}</td><td>{e.action}</td><td>{e.target_type} {e.target_id ?? ''}</td></tr>
            ))}</tbody>
          </table>
          <div className="row" style={{ marginTop: '1rem' }}>
            <button type="button" className="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>Newer</button>
            <span className="hint">{offset + 1}–{offset + log.data.entries.length} of {log.data.total}</span>
            <button type="button" className="secondary" disabled={offset + PAGE >= log.data.total} onClick={() => setOffset(offset + PAGE)}>Older</button>
          </div>
        </>
      )}
    </>
  );
}
