import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { api, unwrap } from '../api/client';

/**
 * The company's workspace: its name and one tab per screen (profile, reviews, widget, insights, scans, billing), so an
 * owner of several companies moves between them without going back to "My companies".
 */
export function CompanyTabs({ id }: { id: string }) {
  const tools = useQuery({ queryKey: ['my-tools'], queryFn: () => unwrap(api.GET('/api/tools/my-tools')) });
  const name = tools.data?.find((t) => t.id === id)?.name;
  const tab = { activeOptions: { includeSearch: false } };
  return (
    <nav className="tabs" aria-label={name ? `${name}: screens` : 'This company\'s screens'}>
      {name ? <span className="tabs-name">{name}</span> : null}
      <Link to="/app/companies/$id/profile" params={{ id }} {...tab}>Profile</Link>
      <Link to="/app/companies/$id/reviews" params={{ id }} {...tab}>Reviews</Link>
      <Link to="/app/companies/$id/widget" params={{ id }} {...tab}>Widget</Link>
      <Link to="/app/companies/$id/insights" params={{ id }} {...tab}>Insights</Link>
      <Link to="/app/companies/$id/scans" params={{ id }} {...tab}>Scans</Link>
      <Link to="/app/billing" search={{ tool_id: id }}>Billing</Link>
    </nav>
  );
}
