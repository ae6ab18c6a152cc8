/**
 * The billing module's reset hook: `toolgate eval` calls it before every trial, so each trial starts
 * from the seeded invoices. It asks the service's POST /admin/reset, which only an instance started for
 * evaluation serves (BILLING_ENABLE_RESET=1); `toolgate serve` never calls it.
 */
export async function resetBillingService(baseUrl: string): Promise<void> {
  const url = new URL('admin/reset', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  const response = await fetch(url, { method: 'POST', signal: AbortSignal.timeout(5_000) });
  if (!response.ok) {
    throw new Error(
      `the billing service at ${baseUrl} did not reset (HTTP ${response.status}); ` +
        'start it with BILLING_ENABLE_RESET=1 to evaluate against it',
    );
  }
}
