-- getCurrencyExchangeRate: GET /api/client/common/getCurrencyExchangeRate
select distinct on ("exchange_rate"."currency") "currency", "rate" from "exchange_rate" order by "exchange_rate"."currency", "exchange_rate"."rate_date" desc;

-- isFold: POST /api/mot/todoEventRule/isFold
select "default_currency", "mot_fold" from "staff" where "staff"."id" = $1 limit $2;
