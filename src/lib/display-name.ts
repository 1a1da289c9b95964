/** A display name from the service slug ("agentpages" → "AgentPages", "my-dir" → "My Dir"). */
export function displayName(serviceName: string): string {
  if (serviceName === 'agentpages') return 'AgentPages';
  return serviceName
    .split('-')
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}
