import { agentCodeSchema, contract, getJsSdkSign, HEADER_AGENT } from '@broker/contract';
import { implementArea } from '../../http/endpoint-route';
import { wecomFailure } from '../../wecom/wecom-errors';
import { newNonce, signJsSdk } from './jssdk-signature';

export const jssdkRoutes = implementArea(contract.wecom, (app) => ({
  getJsSdkSign: async ({ input, caller: { corp }, request }) => {
    // Signed for the app that asks (checked by routeEndpoint, ADR 0015).
    const agentCode = agentCodeSchema.catch(getJsSdkSign.agent).parse(request.headers[HEADER_AGENT]);
    const agent = app.wecom.agentOf(corp, agentCode);
    if (input.refresh) {
      const evicted = await app.wecom.evictTickets(corp, agentCode);
      // An admin sees how often pages meet stale tickets, and whether we asked WeCom again.
      request.log.warn(
        { corp: corp.code, agentCode, evicted },
        evicted.length > 0
          ? 'JS-SDK signature refused by WeCom: cached tickets dropped, signing with fresh ones'
          : 'JS-SDK signature refused by WeCom: tickets were fetched less than a minute ago, kept',
      );
    }
    // Both answered before this request is: no call to WeCom outlives it, so a back-off begins with none in flight.
    const asked = await Promise.allSettled([app.wecom.jsapiTicket(corp, agentCode), app.wecom.agentTicket(corp, agentCode)]);
    const refused = asked.find((answer) => answer.status === 'rejected');
    if (refused) throw wecomFailure(refused.reason);
    const [jsapiTicket, agentTicket] = asked.map((answer) => (answer as PromiseFulfilledResult<string>).value) as [string, string];
    const timestamp = Math.floor(Date.now() / 1000);
    const sign = (ticket: string) => {
      const nonceStr = newNonce();
      return { timestamp, nonceStr, signature: signJsSdk({ ticket, nonceStr, timestamp, url: input.url }) };
    };
    return { corpId: corp.corpId, agentId: agent.agentId, config: sign(jsapiTicket), agentConfig: sign(agentTicket) };
  },
}));
