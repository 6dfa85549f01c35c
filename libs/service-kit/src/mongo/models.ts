import {
  Schema,
  type Connection,
  type Model,
  type SchemaDefinition,
  type SchemaDefinitionType,
  type SchemaOptions,
} from 'mongoose';

/**
 * A collection's schema as every service declares it: no `__v` key (writes that need one guard with their
 * own `version` counters, compare-and-set); `minimize: false` where empty objects must be kept.
 */
export function documentSchema<T>(
  fields: SchemaDefinition<SchemaDefinitionType<T>>,
  options: Pick<SchemaOptions, 'minimize'> = {},
): Schema<T> {
  return new Schema<T>(fields, { versionKey: false, ...options });
}

/**
 * The connection's model `name`, compiled once: a second app built on the same connection (component
 * tests run two service instances on one database) reuses it instead of failing on a recompile.
 */
export function defineModel<T>(
  connection: Connection,
  name: string,
  schema: Schema<T>,
  collection: string,
): Model<T> {
  return (connection.models[name] as Model<T> | undefined) ?? connection.model<T>(name, schema, collection);
}

/**
 * The models a migration step works with, by the names the service compiled them under (its app builds
 * them before the steps run): `{ noteables: 'Noteable' }` gives `{ noteables: Model }`. A missing one is
 * a start-up error naming it, not a step that quietly does nothing.
 */
export function compiledModels<T extends object>(
  connection: Connection,
  names: { [K in keyof T]: string },
): T {
  const found: Record<string, unknown> = {};
  for (const [key, name] of Object.entries<string>(names)) {
    const model = connection.models[name];
    if (!model) throw new Error(`the ${name} model is not compiled before the migrations run`);
    found[key] = model;
  }
  return found as T;
}
