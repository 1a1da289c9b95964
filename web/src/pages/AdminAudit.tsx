import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { paths } from '../api/schema';
import { api, unwrap } from '../api/client';
import { Empty, ErrorBox, Loading, fmtDate, useTitle } from '../ui';

const PAGE = 50;

/** What each recorded action did, in words (the log stores a code). */
const ACTION_WORDS: Record<string, string> = {
  'companies.verify': 'Verified the company',
  'companies.unverify': 'Removed the verification',
  'companies.featured': 'Changed whether the company is featured',
  'companies.edit': 'Edited the profile',
  'companies.delete': 'Deleted the company',
  'companies.subscription': 'Set the subscription',
  'reindex.start': 'Started rebuilding the search index',
};

type Entry = paths['/api/tools/admin/audit-log']['get']['responses'][200]['content']['application/json']['entries'][number];

function target(e: Entry) {
  if (e.target_type === 'company') {
    const name = e.target_name ?? 'A company no longer in the directory';
    return e.target_name ? <Link to="/admin" search={{ q: e.target_name }}>{name}</Link> : name;
  }
  if (e.target_type === 'reindex') return 'The search index';
  return e.target_type;
}

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
              <tr key={e.id}><td>{fmtDate(e.created_at)}</td><td>{e.admin_email}</td><td>{ACTION_WORDS[e.action] ?? e.action.replace(/[._]/g, ' ')}</td><td>{target(e)}</td></tr>
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
