import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { ConfirmButton, Empty, ErrorBox, Loading, Success, fmtDate, useTitle } from '../ui';

const REASON: Record<string, string> = { fake: 'fake', offensive: 'offensive', personal_data: 'shows personal data', wrong_company: 'about another company', other: 'something else' };
const DONE: Record<string, string> = { hide: 'The review is hidden; the rating no longer counts it.', keep: 'The review stays published; its reports are closed.', restore: 'The review is published again.' };

/** Reported reviews: an administrator reads the review and the reports, then hides it or keeps it. */
export default function AdminReviews() {
  useTitle('Reported reviews');
  const qc = useQueryClient();
  const q = useQuery({ queryKey: ['admin-reviews'], queryFn: () => unwrap(api.GET('/api/tools/admin/reviews/reported')) });
  const moderate = useMutation({
    mutationFn: (v: { id: string; decision: 'hide' | 'keep' | 'restore' }) => unwrap(api.POST('/api/tools/admin/reviews/{review_id}/moderate', { params: { path: { review_id: v.id } }, body: { decision: v.decision } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin-reviews'] }),
  });
  return (
    <>
      <h1>Reported reviews</h1>
      <p className="hint">Reviews that an owner or an agent reported. Hiding takes a review off the company page and out of its rating; keeping closes the reports.</p>
      <ErrorBox error={moderate.error} />
      <Success>{moderate.isSuccess && moderate.variables ? DONE[moderate.variables.decision] : null}</Success>
      {q.isPending ? <Loading /> : q.error ? <ErrorBox error={q.error} /> : q.data.reviews.length === 0 ? <Empty>No reported reviews. Nothing to look at.</Empty> : (
        <ul aria-label="Reported reviews" style={{ padding: 0 }}>
          {q.data.reviews.map((r) => (
            <li key={r.id} className="card" style={{ listStyle: 'none' }}>
              <h2 style={{ fontSize: '1.05rem' }}>{r.company_name}: {r.rating} out of 5 by {r.author}</h2>
              <p className="hint">{r.status === 'hidden' ? 'Hidden' : `Published ${fmtDate(r.published_at)}`}{r.written_by === 'agent' ? ' · written with the customer\'s assistant' : ''}</p>
              <blockquote style={{ margin: '.5rem 0', paddingLeft: '.75rem', borderLeft: '3px solid var(--border)' }}>{r.text}</blockquote>
              {r.reply ? <p><strong>The company answered:</strong> {r.reply.text}</p> : null}
              <p><strong>Reports:</strong> {r.reports.map((x) => `${x.reporter === 'owner' ? 'the company' : 'an agent'} says it is ${REASON[x.reason] ?? x.reason} (${fmtDate(x.reported_at)})`).join('; ') || 'none open'}</p>
              <div className="row" style={{ gap: '.5rem' }}>
                {r.status === 'hidden' ? (
                  <button type="button" className="secondary" disabled={moderate.isPending} onClick={() => moderate.mutate({ id: r.id, decision: 'restore' })}>Publish again<span className="skip"> the review by {r.author}</span></button>
                ) : (
                  <>
                    <button type="button" className="secondary" disabled={moderate.isPending} onClick={() => moderate.mutate({ id: r.id, decision: 'keep' })}>Keep it<span className="skip"> (the review by {r.author})</span></button>
                    <ConfirmButton label="Hide" danger title={`Hide the review by ${r.author}?`} body={<p>It leaves {r.company_name}&apos;s page and rating at once. You can publish it again later.</p>} confirmLabel="Hide the review" onConfirm={() => moderate.mutate({ id: r.id, decision: 'hide' })} />
                  </>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
