import { Schema, type Connection, type Model } from 'mongoose';

/**
 * Every address of every user, primary included (GitLab keeps the primary in `emails` too), with the id the
 * Email entity shows. The unique index on the lower-cased address is what makes an address belong to one
 * user only; `UserDoc.emails` mirrors the secondary ones for the identity events.
 */
export interface UserEmailDoc {
  _id: number;
  userId: number;
  email: string;
  emailLower: string;
  confirmedAt: Date | null;
  createdAt: Date;
}

const schema = new Schema<UserEmailDoc>(
  {
    _id: Number,
    userId: { type: Number, index: true },
    email: String,
    emailLower: { type: String, unique: true },
    confirmedAt: Date,
    createdAt: Date,
  },
  { versionKey: false },
);

export function createUserEmailModel(connection: Connection): Model<UserEmailDoc> {
  return (
    (connection.models.UserEmail as Model<UserEmailDoc> | undefined) ??
    connection.model<UserEmailDoc>('UserEmail', schema, 'user_emails')
  );
}
