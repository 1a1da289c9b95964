import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CompanyTabs } from './CompanyTabs';
import { useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { Empty, ErrorBox, Loading, Success, fmtDate, useTitle } from '../ui';

type Review = components['schemas']['ManagedReview'];

const REASONS = [['fake', 'It is fake: no such customer or job'], ['offensive', 'It is offensive'], ['personal_data', 'It shows personal data'], ['wrong_company', 'It is about another company'], ['other', 'Something else']] as const;
const stars = (n: number) => `${'★'.repeat(n)}${'☆'.repeat(5 - n)}`;

/** One review: the customer's words, the company's one public answer, and a report to the administrators. */
function ReviewItem({ toolId, review }: { toolId: string; review: Review }) {
  const qc = useQueryClient();
  const [answer, setAnswer] = useState('');
  const [reporting, setReporting] = useState(false);
  const [reason, setReason] = useState<(typeof REASONS)[number][0]>('fake');
  const [note, setNote] = useState('');
  const done = () => void qc.invalidateQueries({ queryKey: ['reviews', toolId] });
  const reply = useMutation({
    mutationFn: () => unwrap(api.POST('/api/tools/{tool_id}/reviews/{review_id}/reply', { params: { path: { tool_id: toolId, review_id: review.id } }, body: { text: answer.trim() } })),
    onSuccess: done,
  });
  const report = useMutation({
    mutationFn: () => unwrap(api.POST('/api/tools/{tool_id}/reviews/{review_id}/report', { params: { path: { tool_id: toolId, review_id: review.id } }, body: { reason, ...(note.trim() ? { note: note.trim() } : {}) } })),
    onSuccess: () => { setReporting(false); done(); },
  });
  const id = review.id.slice(0, 8);
  return (
    <li className="card" style={{ listStyle: 'none' }}>
      <p><span aria-label={`${review.rating} out of 5`}>{stars(review.rating)}</span> <strong>{review.author}</strong> · {review.published_at ? fmtDate(review.published_at) : 'not published'}
        {review.written_by === 'agent' ? <span className="hint"> · written with their assistant, confirmed by them</span> : null}
        {review.status === 'hidden' ? <span className="tag"> hidden by an administrator</span> : null}</p>
      <p>{review.text}</p>
      {review.reply ? (
        <p><strong>Your answer</strong> ({fmtDate(review.reply.replied_at)}): {review.reply.text}</p>
      ) : (
        <form onSubmit={(e) => { e.preventDefault(); if (answer.trim()) reply.mutate(); }}>
          <label htmlFor={`answer-${id}`}>Your public answer (once; it cannot be changed later)</label>
          <textarea id={`answer-${id}`} rows={3} maxLength={2000} value={answer} onChange={(e) => setAnswer(e.target.value)} />
          <ErrorBox error={reply.error} />
          <button type="submit" disabled={!answer.trim() || reply.isPending}>Publish answer</button>
        </form>
      )}
      {review.reports.length ? <p className="hint">Reported on {fmtDate(review.reports[0]!.reported_at)}; an administrator will look at it.</p> : reporting ? (
        <form onSubmit={(e) => { e.preventDefault(); report.mutate(); }} style={{ marginTop: '.5rem' }}>
          <fieldset>
            <legend>Why should an administrator look at this review?</legend>
            {REASONS.map(([value, label]) => (
              <label key={value} style={{ display: 'flex', gap: '.5rem', alignItems: 'center', fontWeight: 'normal' }}>
                <input type="radio" name={`reason-${id}`} value={value} checked={reason === value} onChange={() => setReason(value)} /> {label}
              </label>
            ))}
          </fieldset>
          <label htmlFor={`note-${id}`}>Anything the administrator should know (optional)</label>
          <input id={`note-${id}`} value={note} maxLength={500} onChange={(e) => setNote(e.target.value)} />
          <ErrorBox error={report.error} />
          <div className="row" style={{ gap: '.5rem', marginTop: '.5rem' }}>
            <button type="button" className="secondary" onClick={() => setReporting(false)}>Go back</button>
            <button type="submit" disabled={report.isPending}>Send report</button>
          </div>
        </form>
      ) : <button type="button" className="secondary" onClick={() => setReporting(true)} style={{ marginTop: '.5rem' }}>Report this review</button>}
      <Success>{report.isSuccess ? 'Reported. An administrator will look at it.' : reply.isSuccess ? 'Your answer is published.' : null}</Success>
    </li>
  );
}

export default function ReviewsPage() {
  useTitle('Reviews');
  const { id } = useParams({ from: '/owner/app/companies/$id/reviews' });
  const q = useQuery({ queryKey: ['reviews', id], queryFn: () => unwrap(api.GET('/api/tools/{tool_id}/reviews', { params: { path: { tool_id: id } } })) });
  const rating = q.data?.rating;
  return (
    <>
      <CompanyTabs id={id} />
      <h1>Reviews</h1>
      <p className="hint">Only the customer of a request you approved through the directory can review you, once, by a link we mail them after your approval. You can answer each review once, publicly.</p>
      {q.isPending ? <Loading /> : q.error ? <ErrorBox error={q.error} /> : q.data.reviews.length === 0 ? (
        <Empty>No reviews yet. When you approve a request, its customer is invited to rate the work.</Empty>
      ) : (
        <>
          {rating && rating.average !== null ? <p><strong>{rating.average} out of 5</strong> from {rating.count} published {rating.count === 1 ? 'review' : 'reviews'}.</p> : null}
          <ul aria-label="Reviews" style={{ padding: 0 }}>{q.data.reviews.map((r) => <ReviewItem key={r.id} toolId={id} review={r} />)}</ul>
        </>
      )}
    </>
  );
}
