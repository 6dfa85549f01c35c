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
