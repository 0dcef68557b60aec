export * from './manage.routes';
